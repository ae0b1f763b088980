// Everything one corr run decides before reading a sample, from the options and the voltages'
// header: the channeliser (if any), the array and phase centre, the engine's shape and
// precision, where fringe stopping is applied, the integration plan, the rows' layout and the
// output's metadata. A plain struct, made and checked once.
#pragma once
#include <optional>
#include <string>

#include "cli/program.hpp"
#include "corr/corr_options.hpp"
#include "corr/correlator_engine.hpp"
#include "corr/fringe_stopping.hpp"
#include "corr/integration_plan.hpp"
#include "corr/visibility_rows.hpp"
#include "io/visibility_set.hpp"
#include "io/voltage_stream.hpp"
#include "ppf/pfb_options.hpp"

namespace rapt {

struct CorrPlan {
  VoltageHeader input;                          // as the file has it
  std::optional<ChanneliserSetup> channeliser;  // --nchan, or real-sampled input
  VoltageHeader voltages;                       // what the correlator sees (channelised or input)
  int frame = 1;                                // input samples per correlated sample
  ArrayLayout layout;
  SkyDirection pointing;                        // the header's
  SkyDirection phase_centre;                    // --phase-centre, else the pointing
  std::optional<FringeStopping> fringe;         // always set
  CorrelatorShape engine;
  std::string precision_reason;                 // why this precision, for -v
  bool rotate_voltages = false;                 // fringe stopping on the voltages (fp32, fp16)
  bool rotate_visibilities = false;             // ... or on each integration (int8)
  IntegrationPlan integration;                  // in samples of `voltages`
  int64_t phase_update_samples = 0;             // rotate_voltages: samples per phase update
  RowSettings rows;
  VisibilitySet metadata;                       // the output's, no rows

  // Channelised samples at the start whose filter taps reach before the data: left out.
  int64_t warmup_samples() const { return channeliser ? channeliser->shape.ntaps - 1 : 0; }
};

// Throws UsageError for options that do not suit these voltages (naming the option) and
// DataError "input: problem" for voltages corr cannot take. Warnings (the narrow-band condition,
// smearing of int8 visibility fringe stopping) and -v details go to `messages`.
CorrPlan make_corr_plan(const CorrOptions& options, const VoltageHeader& input,
                        const Messages& messages);

}  // namespace rapt
