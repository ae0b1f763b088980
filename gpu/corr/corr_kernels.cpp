// Which kernel a precision takes, and the sizes of what it reads and writes.
#include "corr_kernels.hpp"

namespace rapt::gpu {

int corr_element_bytes(CorrPrecision precision) {
  return precision == CorrPrecision::int8 ? 1 : precision == CorrPrecision::fp16 ? 2 : 4;
}

// One pipeline stage: 128 bytes of a row for the tensor-core kernels (64 int8 or 32 half
// complex samples), 16 complex float samples for the fp32 kernel.
int64_t corr_time_quantum(CorrPrecision precision) {
  return precision == CorrPrecision::int8 ? 64 : precision == CorrPrecision::fp16 ? 32 : 16;
}

size_t corr_packed_bytes(CorrPrecision precision, int nchan, int nrecv, int64_t tpad) {
  return size_t(nchan) * size_t(nrecv) * size_t(tpad) * 2 * size_t(corr_element_bytes(precision));
}

void launch_correlator(CorrPrecision precision, const CorrChunkArgs& args, cudaStream_t stream) {
  if (args.nchan <= 0 || args.tpad <= 0) return;
  if (precision == CorrPrecision::fp32)
    launch_fp32_correlator(args, stream);
  else
    launch_tensor_correlator(precision, args, stream);
}

std::string correlator_kernel_text(CorrPrecision precision, int nrecv) {
  if (precision == CorrPrecision::fp32)
    return "fp32 FFMA, 3 a complex product (Gauss), " + std::to_string(fp32_correlator_tile()) +
           "-receiver tiles, 8x4 pairs a thread (diagonal tiles in five 16x32 jobs)";
  const int tile = tensor_correlator_tile(nrecv);
  if (use_wgmma_correlator(nrecv))
    return std::string(precision == CorrPrecision::int8 ? "int8 wgmma m64n128k32, "
                                                        : "fp16 wgmma m64n128k16, ") +
           std::to_string(tile) + "-receiver tiles, a block of two warpgroups a tile" +
           ", rows staged by the tensor memory accelerator, A turned by i in registers" +
           ", the last round's tiles split over the samples onto the idle SMs" +
           (nrecv <= tile ? ", the diagonal's lower half n64 (one tile)" : "");
  return std::string(precision == CorrPrecision::int8 ? "int8 mma.sync m16n8k32"
                                                      : "fp16 mma.sync m16n8k16") +
         ", " + std::to_string(tile) + "-receiver tiles";
}

}  // namespace rapt::gpu
