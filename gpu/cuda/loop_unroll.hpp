// Loop-unrolling hints for code shared by kernels and their CPU emulation: the pragma is given
// to the device pass only, since the host compiler does not know it.
#pragma once

#ifdef __CUDA_ARCH__
#define RAPT_UNROLL _Pragma("unroll")
#define RAPT_UNROLL_2 _Pragma("unroll 2")
#else
#define RAPT_UNROLL
#define RAPT_UNROLL_2
#endif
