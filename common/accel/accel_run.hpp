// The main loop of accelgpu and harmsum: every input is loaded (and zapped), searched by the
// engine and written, in the order given. The next inputs are loaded and searched while the
// current one's candidates are optimised and written; the GPU engine runs two searches at once,
// so a GPU never waits for the host between inputs.
#pragma once
#include <functional>
#include <string>

#include "accel/accel_options.hpp"
#include "accel/accel_search.hpp"
#include "cli/program.hpp"

namespace rapt {

// Called after each input's search, before its files are written (harmsum --dump uses it).
using AccelInputHook = std::function<void(const std::string& root,
                                          const std::vector<std::complex<float>>& spectrum,
                                          const AccelPlan& plan)>;

// Returns the number of inputs searched. Throws on the first input that fails.
int run_accel_inputs(const AccelRunOptions& run, const ParsedOptions& args,
                     const AccelInputHook& hook = {});

}  // namespace rapt
