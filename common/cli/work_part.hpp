// --part K/N: one of N pieces of a job that need no communication (a Slurm job array runs one
// per task). Every program that takes it cuts the same way: its list of independent items (DM
// trials, input files) into N contiguous runs whose sizes differ by at most one, part 1 first,
// so the N parts together do exactly what one run over the whole job does. The same cut shares
// work among several GPUs of one process.
#pragma once
#include <cstddef>
#include <string>

namespace rapt {

struct WorkPart {
  int index = 1;  // K, 1-based as written on the command line
  int count = 1;  // N
  bool whole() const { return count == 1; }
};

// "K/N" with 1 <= K <= N; throws UsageError naming --part otherwise.
WorkPart parse_work_part(const std::string& text);

// Items [begin, end) of `total` that part K of N covers; empty when N > total and K > total.
struct ItemRange {
  size_t begin = 0;
  size_t end = 0;
  size_t size() const { return end - begin; }
};
ItemRange part_items(size_t total, const WorkPart& part);

// "part 2/4".
std::string describe(const WorkPart& part);

}  // namespace rapt
