// The main loop of accelgpu and harmsum: every input is loaded (and zapped), searched by the
// engine and written, in the order given. The next inputs are loaded and searched while the
// current one's candidates are optimised and written; the GPU engine runs two searches at once,
// so a GPU never waits for the host between inputs.
//
// --part K/N keeps only part K's share of the inputs (work_part.hpp's cut). A list of GPUs
// (--device gpu:0,1, gpu:all) cuts that share the same way once more: each GPU gets a thread, an
// engine and an rz maximiser of its own and a contiguous run of the inputs. Every input is
// searched and written exactly as by one GPU, so the outputs are the same bytes.
#pragma once
#include <functional>
#include <string>

#include "accel/accel_options.hpp"
#include "accel/accel_search.hpp"
#include "cli/program.hpp"

namespace rapt {

// Called after each input's search, once its files are written (harmsum --dump uses it).
using AccelInputHook = std::function<void(const std::string& root,
                                          const std::vector<std::complex<float>>& spectrum,
                                          const AccelPlan& plan)>;

// The inputs --part selects, in the order given (all of them without --part).
std::vector<std::string> accel_part_files(const AccelRunOptions& run);

// Returns the number of inputs searched (0, with a message, when --part's share is empty).
// Throws the first failure; once one part fails, the others write no further inputs.
int run_accel_inputs(const AccelRunOptions& run, const ParsedOptions& args,
                     const AccelInputHook& hook = {});

}  // namespace rapt
