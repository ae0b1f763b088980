#include "accel/accel_options.hpp"

#include "cli/errors.hpp"

namespace rapt {

void add_accel_options(cxxopts::Options& options, bool with_acceleration) {
  auto add = options.add_options();
  if (with_acceleration) {
    add("zmax", "largest drift searched, in Fourier bins (rounded up to even; 0 to 1200)",
        cxxopts::value<int>()->default_value("200"))
       ("wmax", "largest jerk searched: only 0 (no jerk search; accepted for PRESTO scripts)",
        cxxopts::value<int>()->default_value("0"))
       ("noharmpolish", "optimise each harmonic on its own instead of together")
       ("noharmremove", "keep harmonically related candidates");
  }
  add("numharm", "harmonics to sum: 1, 2, 4, 8, 16 or 32",
      cxxopts::value<int>()->default_value("8"))
     ("sigma", "keep candidates above this sigma (with the trials factor)",
      cxxopts::value<double>()->default_value("2.0"))
     ("flo", "lowest frequency of the highest harmonic (Hz)",
      cxxopts::value<double>()->default_value("1.0"))
     ("fhi", "highest frequency of the highest harmonic (Hz)",
      cxxopts::value<double>()->default_value("10000.0"))
     ("rlo", "lowest Fourier bin of the highest harmonic (instead of -flo)",
      cxxopts::value<double>())
     ("rhi", "highest Fourier bin of the highest harmonic (instead of -fhi)",
      cxxopts::value<double>())
     ("lobin", "the first Fourier bin held in the .fft file",
      cxxopts::value<int64_t>()->default_value("0"))
     ("photon", "normalise powers by the DC level (photon-counting data)")
     ("median", "normalise by the median power of each segment (the default)")
     ("locpow", "normalise by a running local-power estimate")
     ("zaplist", "zap the birdies in this file (lines: freq_Hz width_Hz) first",
      cxxopts::value<std::string>())
     ("baryv", "barycentric velocity (v/c) of the observation, for -zaplist",
      cxxopts::value<double>()->default_value("0.0"))
     ("inmem", "keep the whole f-fdot plane in memory (always done; accepted for PRESTO)")
     ("ncpus", "CPU threads (PRESTO's name for --threads)", cxxopts::value<int>())
     ("threads", "CPU threads (0 = all cores)", cxxopts::value<int>()->default_value("0"))
     ("fp16", "store the plane in half precision (square roots of the powers): half the "
      "memory and harmonic-sum traffic; powers good to 0.1%, saturating at 4.3e9")
     ("device", "auto, cpu, gpu, gpu:N, gpu:N,M,... or gpu:all (a list splits the files over "
      "the GPUs)", cxxopts::value<std::string>()->default_value("auto"))
     ("part", "search only part K of N of the input files (K/N: the files cut into N "
      "contiguous, balanced runs)", cxxopts::value<std::string>())
     ("files", "inputs: .fft, .dat or .sdat (each with its .inf)",
      cxxopts::value<std::vector<std::string>>());
}

std::vector<std::string> accel_presto_option_names(bool with_acceleration) {
  std::vector<std::string> names = {"numharm", "sigma", "flo", "fhi", "rlo", "rhi",
                                    "lobin", "photon", "median", "locpow", "zaplist",
                                    "baryv", "inmem", "ncpus"};
  if (with_acceleration) {
    for (const char* name : {"zmax", "wmax", "noharmpolish", "noharmremove"}) {
      names.emplace_back(name);
    }
  }
  return names;
}

AccelRunOptions read_accel_options(const cxxopts::ParseResult& result,
                                   const std::vector<std::string>& positional,
                                   bool with_acceleration) {
  AccelRunOptions run;
  AccelSearchOptions& s = run.search;
  if (with_acceleration) {
    s.zmax = result["zmax"].as<int>();
    // Refused by name: a script asking accelsearch for a jerk search must not get a plain
    // acceleration search that looks like one.
    const int wmax = result["wmax"].as<int>();
    if (wmax != 0)
      throw UsageError("-wmax " + std::to_string(wmax) +
                       ": the jerk search is not available (only -wmax 0)");
    s.harmonic_polish = result.count("noharmpolish") == 0;
    s.remove_harmonics = result.count("noharmremove") == 0;
  } else {
    s.zmax = 0;
    s.plane_mode = PlaneMode::Interbin;
  }
  s.numharm = result["numharm"].as<int>();
  s.sigma = result["sigma"].as<double>();
  s.flo_hz = result["flo"].as<double>();
  s.fhi_hz = result["fhi"].as<double>();
  if (result.count("rlo")) s.rlo = result["rlo"].as<double>();
  if (result.count("rhi")) s.rhi = result["rhi"].as<double>();
  if (result.count("rlo") && s.rlo < 0.0) throw UsageError("-rlo must be >= 0");
  if (result.count("rhi") && s.rhi < 0.0) throw UsageError("-rhi must be >= 0");
  s.lobin = result["lobin"].as<int64_t>();
  if (s.lobin < 0) throw UsageError("-lobin must be >= 0");
  const int kinds = int(result.count("photon") > 0) + int(result.count("median") > 0) +
                    int(result.count("locpow") > 0);
  if (kinds > 1) throw UsageError("give at most one of -photon, -median and -locpow");
  if (result.count("photon")) s.normalisation = SpectrumNormalisation::Photon;
  if (result.count("locpow")) s.normalisation = SpectrumNormalisation::LocalPower;
  if (result.count("zaplist")) run.zaplist = result["zaplist"].as<std::string>();
  run.baryv = result["baryv"].as<double>();
  if (result.count("fp16")) s.plane_precision = PlanePrecision::Float16;
  run.device = result["device"].as<std::string>();
  run.threads = result.count("ncpus") ? result["ncpus"].as<int>() : result["threads"].as<int>();
  if (run.threads < 0) throw UsageError("--threads must be >= 0");
  if (result.count("part")) run.part = parse_work_part(result["part"].as<std::string>());
  run.files = positional;
  if (run.files.empty()) throw UsageError("no input files (give .fft, .dat or .sdat files)");
  return run;
}

}  // namespace rapt
