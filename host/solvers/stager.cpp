// Pinned host memory and the staging ring (opencl_base.hpp: PinnedBuffer, Stager):
// rows between host memory and device buffers through pinned chunks.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "solvers/opencl_base.hpp"
#include "util/errors.hpp"

namespace ocl_sp::detail {

PinnedBuffer::PinnedBuffer(const cl::Context& ctx, const cl::CommandQueue& queue, size_t bytes)
    : queue_(queue), bytes_(bytes) {
  buf_ = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
  ptr_ = queue_.enqueueMapBuffer(buf_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
}

PinnedBuffer::~PinnedBuffer() {
  if (!ptr_) return;
  try {
    queue_.enqueueUnmapMemObject(buf_, ptr_);
    queue_.finish();
  } catch (...) {
  }
}

Stager::Stager(OpenClCore& core, size_t chunks, size_t chunk_bytes)
    : core_(core), chunk_bytes_(chunk_bytes), slots_(chunks) {
  for (Slot& s : slots_)
    s.mem = std::make_unique<PinnedBuffer>(core.context(), core.queue(), chunk_bytes);
}

Stager::~Stager() {
  try {
    core_.flush_all();
    for (Slot& s : slots_)
      if (s.done()) s.done.wait();
  } catch (...) {
  }
}

size_t Stager::rows_per_chunk(const Rows& at) const {
  const size_t rows = at.row_bytes ? chunk_bytes_ / at.row_bytes : 0;
  if (rows == 0)
    throw RuntimeError("internal: a staging chunk of " + std::to_string(chunk_bytes_) +
                       " bytes cannot hold a row of " + std::to_string(at.row_bytes));
  return rows;
}

void Stager::settle(Slot& s) {
  if (s.done()) {
    core_.flush_all();  // the copy, or what it waits for, may still be unsubmitted
    s.done.wait();
    s.done = cl::Event();
  }
  if (s.drain) {
    const Drain drain = std::move(s.drain);
    s.drain = nullptr;
    drain(s.mem->data(), s.r0, s.r1);
  }
}

Stager::Slot& Stager::take() {
  Slot& s = slots_[next_];
  next_ = (next_ + 1) % slots_.size();
  settle(s);
  return s;
}

void Stager::settle() {
  for (size_t k = 0; k < slots_.size(); ++k) settle(slots_[(next_ + k) % slots_.size()]);
}

void Stager::settle_through(uint64_t ticket) {
  for (size_t k = 0; k < slots_.size(); ++k) {
    Slot& s = slots_[(next_ + k) % slots_.size()];
    if (s.seq > ticket) break;  // the ring from next_ on runs oldest first
    settle(s);
  }
}

void Stager::discard() noexcept {
  for (Slot& s : slots_) {
    try {
      if (s.done()) s.done.wait();
    } catch (...) {
    }
    s.done = cl::Event();
    s.drain = nullptr;
  }
}

cl::Event Stager::upload(OpenClCore::QueueId q, cl::Buffer& buf, const Rows& at, const Fill& fill,
                         const std::vector<cl::Event>& wait) {
  return move(q, buf, at, &fill, nullptr, wait);
}

cl::Event Stager::download(OpenClCore::QueueId q, cl::Buffer& buf, const Rows& at,
                           const Drain& drain, const std::vector<cl::Event>& wait) {
  return move(q, buf, at, nullptr, &drain, wait);
}

// One chunk after the other through the ring; the first waits for `wait`, the
// others follow it in order on q.
cl::Event Stager::move(OpenClCore::QueueId q, cl::Buffer& buf, const Rows& at, const Fill* fill,
                       const Drain* drain, const std::vector<cl::Event>& wait) {
  const size_t per = rows_per_chunk(at);
  const bool contiguous = at.pitch == at.row_bytes;
  cl::Event ev;
  for (size_t r0 = 0; r0 < at.rows; r0 += per) {
    const size_t r1 = std::min(at.rows, r0 + per), bytes = (r1 - r0) * at.row_bytes;
    Slot& s = take();
    void* chunk = s.mem->data();
    const std::vector<cl::Event>& w = r0 == 0 ? wait : std::vector<cl::Event>{};
    if (fill) {
      (*fill)(chunk, r0, r1);
      ev = contiguous ? core_.write_async(q, buf, r0 * at.pitch, bytes, chunk, w)
                      : core_.write_rect(q, buf, at.pitch, r0, chunk, at.row_bytes, at.row_bytes,
                                         r1 - r0, w);
    } else {
      ev = contiguous ? core_.read_async(q, buf, r0 * at.pitch, bytes, chunk, w)
                      : core_.read_rect(q, buf, at.pitch, r0, chunk, at.row_bytes, at.row_bytes,
                                        r1 - r0, w);
      s.drain = *drain;
      s.r0 = r0;
      s.r1 = r1;
    }
    s.done = ev;
    s.seq = ++moves_;
    core_.queue(q).flush();
  }
  return ev;
}

size_t stage_chunks(size_t fallback) {
  if (const char* e = std::getenv("OCL_SP_STAGE_CHUNKS"); e && *e)
    return static_cast<size_t>(std::clamp(std::atoi(e), 2, 16));
  return fallback;
}

size_t stage_bytes(size_t fallback) {
  if (const char* e = std::getenv("OCL_SP_STAGE_BYTES"); e && *e) {
    const long long v = std::atoll(e);
    if (v > 0) return static_cast<size_t>(v);
  }
  return fallback;
}

}  // namespace ocl_sp::detail
