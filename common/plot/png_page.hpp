// One PNG page drawn with PLplot's cairo driver: the plot programs' shared frame. The page is
// drawn into a temporary file in its own PLplot stream and renamed to `path` when complete.
// Only in builds with PLplot (RAPT_WITH_PLPLOT); the callers say what a build without it does.
#pragma once
#include <functional>
#include <string>

namespace rapt {

// White background, colour 1 black, colour 9 blue; `draw` makes the PLplot calls of the page.
// Throws DataError naming `path` if it exists and !overwrite, if PLplot has no pngcairo driver
// or if the file cannot be written.
void write_png_page(const std::string& path, int width_px, int height_px, bool overwrite,
                    const std::function<void()>& draw);

}  // namespace rapt
