B=build-gpu/ocl_sp; O=$1
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv
P=$(which python3); OCL=$(ldconfig -p | awk '/libOpenCL.so.1 /{print $NF; exit}'); echo "loader $OCL"
cmake -S . -B /tmp/pb -DCMAKE_BUILD_TYPE=Release -DOCL_SP_BUILD_TESTS=OFF -DOCL_SP_MPI=OFF -DPython_EXECUTABLE=$P -DOpenCL_INCLUDE_DIR=$PWD/.devdeps/include -DOpenCL_LIBRARY=$OCL -DCMAKE_CXX_FLAGS=-I$PWD/.devdeps/include > $O/pybuild.txt 2>&1 && cmake --build /tmp/pb -j16 --target ocl_sp_python >> $O/pybuild.txt 2>&1 || { echo "python build failed"; tail -20 $O/pybuild.txt; exit 1; }
PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/pb/python python3 bench/python_vs_scipy.py --backend opencl --device nvidia --sizes 1000,2000,5000 --scipy-max-n 5000 --scipy-reps 1 --reps 5 --csv $O/python_vs_scipy.csv
