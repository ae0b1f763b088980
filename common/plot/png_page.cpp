#include "plot/png_page.hpp"

#ifdef RAPT_WITH_PLPLOT
#include <plplot.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"

namespace rapt {
namespace {

bool has_pngcairo() {
  std::vector<const char*> menu_store(128), name_store(128);
  const char** menu = menu_store.data();
  const char** names = name_store.data();
  int count = int(menu_store.size());
  plgDevs(&menu, &names, &count);
  for (int i = 0; i < count; ++i)
    if (std::strcmp(names[i], "pngcairo") == 0) return true;
  return false;
}

}  // namespace

void write_png_page(const std::string& path, int width_px, int height_px, bool overwrite,
                    const std::function<void()>& draw) {
  if (!overwrite && path_exists(path)) throw file_error(path, "exists (use --force to replace it)");
  PLINT previous = 0, stream = 0;
  plgstrm(&previous);
  plmkstrm(&stream);
  if (stream < 0) throw file_error(path, "PLplot could not open a plot stream");
  if (!has_pngcairo()) {
    plend1();
    plsstrm(previous);
    throw file_error(path, "PLplot has no pngcairo driver (install plplot-driver-cairo)");
  }
  const std::string temp = path + ".tmp." + std::to_string(::getpid()) + ".png";
  // PLplot writes the file itself, so the signal handler learns of it here.
  PendingTemporary pending(temp);
  plsdev("pngcairo");
  plsfnam(temp.c_str());
  plspage(0.0, 0.0, width_px, height_px, 0, 0);
  plscolbg(255, 255, 255);
  plscol0(1, 0, 0, 0);
  plscol0(9, 40, 80, 200);
  plinit();
  try {
    draw();
  } catch (...) {
    // Close the stream first so PLplot has finished with the file before it is removed.
    plend1();
    plsstrm(previous);
    std::remove(temp.c_str());
    throw;
  }
  plend1();
  plsstrm(previous);
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    throw file_error(path, "cannot write the plot: " + errno_text());
  }
}

}  // namespace rapt
#endif
