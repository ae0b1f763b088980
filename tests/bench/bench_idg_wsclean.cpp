// The idg-cpu rows of `make bench`: idg-grid's CPU engine beside WSClean's gridders, all run as
// whole programs on the same simulated Measurement Set.
//   W1: 32 antennas within 1.5 km (496 baselines), 20 integrations of 10 s, 32 channels of
//       1 MHz at 1.4 GHz: 317,440 cross-correlation visibilities, a 1 Jy source at the phase
//       centre and two weaker ones; naturally weighted Stokes I dirty image of 512 x 512 pixels
//       of 5", no PSF.
// idg-grid runs with --device cpu --threads T --no-psf, wsclean with -size/-scale the same,
// -weight natural, -no-update-model-required and -j T: its default gridder (no -use-idg or
// -use-wgridder; in WSClean 3.1 the w-stacking gridder, with as many w-layers as cores), and
// again with -use-wgridder (Reinecke's w-gridder), T = every core. "wall s" is the program from
// start to exit (reading the MS, weighting, gridding, FFTs, writing the FITS file), the median
// of up to three runs after one untimed run that warms the file cache; "vis/s" is the
// visibilities (baseline, time, channel, Stokes I) over that time. "engine vis/s" is idg-grid's
// own report of its gridding time. "peak" is each dirty image's brightest pixel; check =
// WSClean's within 1 % of idg-grid's.
// Skipped, with a row saying why, when wsclean is not installed or the build has no casacore.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_table.hpp"
#include "bench_workloads.hpp"
#include "io/fits_image.hpp"

namespace rapt::bench {
namespace {

constexpr int kAntennas = 32;
constexpr int kIntegrations = 20;
constexpr int kChannels = 32;
constexpr int kImageSize = 512;
constexpr const char* kScale = "5asec";

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The last non-empty line of a log, for a row that says what went wrong.
std::string last_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

// BUILD/bin beside this program (BUILD/tests/rapt_bench), else $BUILD/bin, else build/bin.
std::string program_folder() {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    std::string path(self, size_t(n));
    for (int up = 0; up < 2; ++up) path = path.substr(0, path.find_last_of('/'));
    if (access((path + "/bin/idg-grid").c_str(), X_OK) == 0) return path + "/bin";
  }
  const char* build = std::getenv("BUILD");
  return std::string(build && *build ? build : "build") + "/bin";
}

void remove_folder(const std::string& dir) {
  if (std::system(("rm -rf " + quoted(dir)).c_str()) != 0)
    std::fprintf(stderr, "rapt_bench: could not remove %s\n", dir.c_str());
}

bool on_path(const std::string& program) {
  return std::system(("command -v " + program + " > /dev/null 2>&1").c_str()) == 0;
}

double wall_seconds(const std::string& command, int* status) {
  const auto start = std::chrono::steady_clock::now();
  *status = std::system(command.c_str());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// An untimed run, then up to `repeats` timed ones (fewer when one run is long): the median.
double median_wall_seconds(const std::string& command, int repeats, std::string* error,
                           const std::string& log) {
  int status = 0;
  const double first = wall_seconds(command, &status);
  if (status != 0) {
    *error = last_line(file_text(log));
    return 0;
  }
  std::vector<double> times;
  const int runs = first > 5.0 ? 1 : std::clamp(repeats, 1, 3);
  for (int r = 0; r < runs; ++r) {
    times.push_back(wall_seconds(command, &status));
    if (status != 0) {
      *error = last_line(file_text(log));
      return 0;
    }
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

double image_peak(const std::string& path) {
  const FitsImage image = read_fits_image(path);
  float peak = image.pixels.empty() ? 0.0f : image.pixels[0];
  for (float v : image.pixels)
    if (std::isfinite(v)) peak = std::max(peak, v);
  return peak;
}

// Antennas on a spiral within 1.5 km, east-north-up around the VLA's site.
void write_layout(const std::string& path) {
  std::ofstream out(path);
  out << "# telescope: BENCH\n# frame: enu 34:04:43.5 -107:37:03.8 2124\n";
  for (int a = 0; a < kAntennas; ++a) {
    const double r = 1500.0 * std::sqrt((a + 0.5) / kAntennas), phi = 2.399963 * a;
    char line[128];
    std::snprintf(line, sizeof line, "b%02d %.2f %.2f %.2f 25\n", a, r * std::cos(phi),
                  r * std::sin(phi), 0.001 * r);
    out << line;
  }
}

}  // namespace

void print_idg_wsclean_tables(const BenchSettings& settings) {
  BenchTable table({"idg-cpu", "visibilities", "program", "threads", "wall s", "vis/s",
                    "engine vis/s", "peak Jy/beam", "check"});
  const std::string workload = "W1 512^2 5\"";
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  const std::string bin = program_folder();
  if (!settings.run_cpu) return;
  std::printf("\n# idg-grid's CPU engine and WSClean's gridders (default: w-stacking in 3.1) "
              "as whole programs: one simulated MS, %d antennas, %d x 10 s, %d channels at "
              "1.4 GHz; natural-weighted Stokes I dirty image %d x %d of %s; wall s = median "
              "program run after a warm-up run; vis/s = baseline-time-channel visibilities / "
              "wall s; engine vis/s = idg-grid's own gridding rate; check = dirty-image peak "
              "within 1 %% of idg-grid's\n",
              kAntennas, kIntegrations, kChannels, kImageSize, kImageSize, kScale);
  if (access((bin + "/idg-grid").c_str(), X_OK) != 0 ||
      access((bin + "/simulate").c_str(), X_OK) != 0) {
    table.add_row({workload, "-", "-", "skipped: " + bin + "/idg-grid or simulate not built"});
    table.print(stdout);
    return;
  }
  if (!on_path("wsclean")) {
    table.add_row({workload, "-", "-", "skipped: wsclean not installed"});
    table.print(stdout);
    return;
  }
  char folder[] = "/tmp/rapt_bench_idg_XXXXXX";
  if (!mkdtemp(folder)) {
    table.add_row({workload, "-", "-", "skipped: no temporary folder"});
    table.print(stdout);
    return;
  }
  const std::string dir = folder;
  const std::string log = dir + "/log";
  write_layout(dir + "/layout.txt");
  std::fprintf(stderr, "rapt_bench: idg-cpu: simulating the Measurement Set\n");
  const std::string simulate =
      quoted(bin + "/simulate") + " -q --visibilities --layout " + quoted(dir + "/layout.txt") +
      " --freq 1400 --bw " + std::to_string(kChannels) + " --nchans " +
      std::to_string(kChannels) + " --ra 12:00:00 --dec +40:00:00 --tstart 60310.5" +
      " --int-time 10 --nints " + std::to_string(kIntegrations) +
      " --source ra=180,dec=40,flux=1 --source ra=180.01,dec=40.005,flux=0.5" +
      " --source ra=179.985,dec=39.99,flux=0.3 -o " + quoted(dir + "/sim.ms") + " > " +
      quoted(log) + " 2>&1";
  if (std::system(simulate.c_str()) != 0) {
    const std::string why = last_line(file_text(log));
    table.add_row({workload, "-", "-",
                   why.find("Measurement Set") != std::string::npos
                       ? "skipped: this build has no casacore (" + why + ")"
                       : "FAIL: simulate: " + why});
    table.print(stdout);
    remove_folder(dir);
    return;
  }
  const std::string ms = quoted(dir + "/sim.ms");

  // idg-grid: the visibilities and its own gridding time from its one line on stderr.
  std::fprintf(stderr, "rapt_bench: idg-cpu: idg-grid --device cpu --threads %d\n", threads);
  const std::string idg = quoted(bin + "/idg-grid") + " --force --device cpu --threads " +
                          std::to_string(threads) + " --size " + std::to_string(kImageSize) +
                          " --scale " + kScale + " --weight natural --no-psf -o " +
                          quoted(dir + "/idg") + " " + ms + " > " + quoted(log) + " 2>&1";
  std::string idg_error;
  const double idg_s = median_wall_seconds(idg, settings.repeats, &idg_error, log);
  double nvis = double(kAntennas) * (kAntennas - 1) / 2 * kIntegrations * kChannels;
  double engine_s = 0;
  if (idg_error.empty()) {
    const std::string report = file_text(log);
    const size_t at = report.find("idg-grid: ");
    double reported = 0, seconds = 0;
    const size_t in = report.find(" in ", at);
    if (at != std::string::npos && in != std::string::npos &&
        std::sscanf(report.c_str() + at, "idg-grid: %lf visibilities", &reported) == 1 &&
        std::sscanf(report.c_str() + in, " in %lf s", &seconds) == 1 && seconds > 0) {
      nvis = reported;
      engine_s = seconds;
    }
  }

  const std::string nvis_text = number_cell(nvis);
  const std::string threads_text = std::to_string(threads);
  double idg_peak = 0;
  std::string idg_read_error;
  try {
    if (idg_error.empty()) idg_peak = image_peak(dir + "/idg-dirty.fits");
  } catch (const std::exception& e) {
    idg_read_error = e.what();
  }
  if (!idg_error.empty())
    table.add_row({workload, nvis_text, "idg-grid (cpu)", threads_text, "FAIL: " + idg_error});
  else
    table.add_row({workload, nvis_text, "idg-grid (cpu)", threads_text, number_cell(idg_s),
                   number_cell(nvis / idg_s), engine_s > 0 ? number_cell(nvis / engine_s) : "-",
                   number_cell(idg_peak),
                   idg_read_error.empty() ? "reference" : "FAIL: " + idg_read_error});

  // WSClean's default gridder, then (the gridder it recommends for speed) -use-wgridder.
  for (const auto& [label, option] :
       {std::pair<std::string, std::string>{"wsclean (default)", ""},
        {"wsclean -use-wgridder", " -use-wgridder"}}) {
    std::fprintf(stderr, "rapt_bench: idg-cpu: wsclean -j %d%s\n", threads, option.c_str());
    const std::string ws = "cd " + quoted(dir) + " && wsclean -quiet -j " +
                           std::to_string(threads) + option + " -size " +
                           std::to_string(kImageSize) + " " + std::to_string(kImageSize) +
                           " -scale " + kScale +
                           " -weight natural -no-update-model-required -name ws " + ms + " > " +
                           quoted(log) + " 2>&1";
    std::string ws_error;
    const double ws_s = median_wall_seconds(ws, settings.repeats, &ws_error, log);
    if (!ws_error.empty()) {
      table.add_row({workload, nvis_text, label, threads_text, "FAIL: " + ws_error});
      continue;
    }
    std::string check = "-";
    double ws_peak = 0;
    try {
      ws_peak = image_peak(dir + "/ws-dirty.fits");
      if (idg_error.empty() && idg_read_error.empty()) {
        const double difference = std::abs(idg_peak - ws_peak) / std::abs(ws_peak);
        check = std::string(difference <= 0.01 ? "ok " : "FAIL ") + percent_cell(difference);
      }
    } catch (const std::exception& e) {
      check = std::string("FAIL: ") + e.what();
    }
    table.add_row({workload, nvis_text, label, threads_text, number_cell(ws_s),
                   number_cell(nvis / ws_s), "-", number_cell(ws_peak), check});
  }
  table.print(stdout);
  remove_folder(dir);
}

}  // namespace rapt::bench
