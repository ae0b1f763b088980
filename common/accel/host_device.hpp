// Functions marked RAPT_HOST_DEVICE compile for the host and, when nvcc compiles the including
// file, for the device too: the optimiser's maths is written once and shared by both.
#pragma once

#ifdef __CUDACC__
#define RAPT_HOST_DEVICE __host__ __device__
#else
#define RAPT_HOST_DEVICE
#endif
