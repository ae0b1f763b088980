// A stop asked of a search that runs as long as its input (snr --realtime): Ctrl-C, a
// scheduler's SIGTERM or a closed terminal's SIGHUP end the observation, not the search, which
// then searches what it has read and writes its outputs.
//
//   stop_on_first_signal("snr");   // from now on the first such signal only asks a stop
//   { StopWakesReads waking;  read(...); }   // a read waiting for data returns at a stop
//   if (stop_requested()) ...      // checked between blocks of work
#pragma once

namespace rapt {

// From this call on, the first SIGINT, SIGTERM or SIGHUP asks a stop (stop_requested() turns
// true and a line on stderr says so); the second ends the program as any program ends
// (run_program's cleanup: unfinished outputs removed, death by the signal). Signals ignored on
// entry stay ignored. SIGPIPE no longer ends the program: a write to a closed standard output
// fails instead, and the program calls stop_for_closed_output().
void stop_on_first_signal(const char* program);

bool stop_requested();
// What asked it: SIGINT, SIGTERM, SIGHUP, SIGPIPE (standard output closed), or 0.
int stop_signal();

// Standard output's reader has gone (`| head`, Ctrl-C on a whole pipeline): a stop too, said
// once, that leaves the next signal a first one.
void stop_for_closed_output();

// While one lives, a stop wakes the thread that made it from a read waiting for data that may
// never come (a stalled recorder, `tail -f`): the read returns EINTR, every 100 ms until the
// guard is gone, and the reader takes that as the end of its data (when stop_requested()). One
// thread at a time.
class StopWakesReads {
 public:
  StopWakesReads();
  ~StopWakesReads();
  StopWakesReads(const StopWakesReads&) = delete;
  StopWakesReads& operator=(const StopWakesReads&) = delete;
};

}  // namespace rapt
