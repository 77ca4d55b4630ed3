# Builds the man page ocl_sp(1) (cmake/install.cmake): help2man runs BIN --help and
# --version for the main page; each subcommand's own --help becomes a section of
# its own through help2man's --include file, so every option of every subcommand
# is documented from the binary itself.
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
set(inc ${dir}/subcommands.h2m)
set(text "[DESCRIPTION]\nocl_sp computes all-pairs shortest paths on any OpenCL device (NVIDIA, AMD, Intel GPUs; CPUs via PoCL), with OpenMP and serial CPU solvers. Without a subcommand it solves one graph; the subcommands are listed below.\n")
foreach(sub devices bench sweep)
  execute_process(COMMAND ${BIN} ${sub} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "'${BIN} ${sub} --help' failed (${rc})")
  endif()
  # roff: a leading '.' or "'" would be a request; backslashes must be doubled.
  string(REPLACE "\\" "\\\\" help "${help}")
  string(REPLACE "-" "\\-" help "${help}")  # minus signs, not hyphens, in options
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(TOUPPER ${sub} upper)
  set(text "${text}\n[SUBCOMMAND ${upper}]\n.nf\n${help}\n.fi\n")
endforeach()
set(text "${text}\n[FILES]\n.TP\n\\fI~/.cache/ocl_sp/\\fR\nprogram cache and tuned parameters (\\fBOCL_SP_CACHE_DIR\\fR, \\fBXDG_CACHE_HOME\\fR)\n")
set(text "${text}\n[ENVIRONMENT]\n.TP\n\\fBOCL_SP_DEVICE\\fR\ndefault for \\-\\-device\n.TP\n\\fBOCL_SP_NO_CACHE\\fR\ndisable the program cache\n")
file(WRITE ${inc} "${text}")
execute_process(
  COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section 1
          --name "all-pairs shortest paths on any OpenCL device"
          --include ${inc} --output ${OUT}.tmp ${BIN}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${rc})")
endif()
# help2man reflows the help's "Examples:" block (command and comment columns) into
# one paragraph: that section is replaced by the block verbatim.
execute_process(COMMAND ${BIN} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
string(FIND "${help}" "Examples:\n" from)
string(FIND "${help}" "Usage:" to)
file(READ ${OUT}.tmp page)
string(FIND "${page}" ".SH EXAMPLES\n" at)
if(rc EQUAL 0 AND from GREATER -1 AND to GREATER from AND at GREATER -1)
  math(EXPR from "${from} + 10")
  math(EXPR len "${to} - ${from}")
  string(SUBSTRING "${help}" ${from} ${len} examples)
  string(REPLACE "\\" "\\\\" examples "${examples}")
  string(REPLACE "-" "\\-" examples "${examples}")
  string(SUBSTRING "${page}" 0 ${at} head)
  string(SUBSTRING "${page}" ${at} -1 rest)
  string(LENGTH ".SH EXAMPLES\n" skip)
  string(SUBSTRING "${rest}" ${skip} -1 rest)
  string(FIND "${rest}" "\n.SH " next)
  set(tail "")
  if(next GREATER -1)
    string(SUBSTRING "${rest}" ${next} -1 tail)
  endif()
  file(WRITE ${OUT}.tmp "${head}.SH EXAMPLES\n.nf\n${examples}.fi${tail}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
