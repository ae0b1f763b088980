#include "cli/stop_request.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include "cli/program.hpp"

namespace rapt {
namespace {

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free flags");
std::atomic<int> signal_stop{0};          // the first stop signal, set by its handler
std::atomic<bool> output_closed{false};   // stop_for_closed_output()
char stop_message[200];                   // "PROGRAM: stopping: ...", written by the handler
size_t stop_message_length = 0;
char program_name[64];

const int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
bool ignored_on_entry[3] = {false, false, false};

// The thread a StopWakesReads guards, woken by a signal of its own. (The mutex is never
// destroyed: the waking thread may still run while the program exits.)
std::mutex& waking_mutex = *new std::mutex;
bool waking = false;
pthread_t waking_thread;
int wake_signal() { return SIGRTMIN; }

// The first stop signal: noted and said, and the next one made fatal. (Two arriving together
// on two threads: the exchange makes the later one the second.) Only async-signal-safe calls.
extern "C" void note_stop_signal(int signal_number) {
  if (signal_stop.exchange(signal_number) != 0) {
    remove_temporaries_and_die(signal_number);
    return;
  }
  if (::write(STDERR_FILENO, stop_message, stop_message_length) < 0) {
    // stderr is gone: nothing to say it on
  }
  struct sigaction fatal = {};
  fatal.sa_handler = remove_temporaries_and_die;
  sigemptyset(&fatal.sa_mask);
  for (size_t k = 0; k < 3; ++k)
    if (!ignored_on_entry[k]) ::sigaction(kStopSignals[k], &fatal, nullptr);
}

// The wake signal: nothing to do but end the wait (installed without SA_RESTART).
extern "C" void end_the_wait(int) {}

// Wakes the guarded thread every 100 ms once a stop is asked.
void wake_guarded_reads() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!stop_requested()) continue;
    const std::lock_guard<std::mutex> lock(waking_mutex);
    if (waking) ::pthread_kill(waking_thread, wake_signal());
  }
}

}  // namespace

void stop_on_first_signal(const char* program) {
  std::snprintf(program_name, sizeof program_name, "%s", program);
  std::snprintf(stop_message, sizeof stop_message,
                "%s: stopping: the data read so far are searched and the outputs written (a "
                "second signal ends it at once, without the outputs not yet written)\n",
                program);
  stop_message_length = std::strlen(stop_message);
  struct sigaction action = {};
  action.sa_handler = note_stop_signal;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (const int s : kStopSignals) sigaddset(&action.sa_mask, s);
  for (size_t k = 0; k < 3; ++k) {
    struct sigaction current = {};
    ::sigaction(kStopSignals[k], nullptr, &current);
    ignored_on_entry[k] = current.sa_handler == SIG_IGN;
    if (!ignored_on_entry[k]) ::sigaction(kStopSignals[k], &action, nullptr);
  }
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, nullptr);
  struct sigaction wake = {};
  wake.sa_handler = end_the_wait;
  sigemptyset(&wake.sa_mask);
  ::sigaction(wake_signal(), &wake, nullptr);
  static std::once_flag started;
  std::call_once(started, [] { std::thread(wake_guarded_reads).detach(); });
}

bool stop_requested() { return signal_stop.load() != 0 || output_closed.load(); }

int stop_signal() {
  const int s = signal_stop.load();
  return s != 0 ? s : output_closed.load() ? SIGPIPE : 0;
}

void stop_for_closed_output() {
  if (output_closed.exchange(true) || signal_stop.load() != 0) return;
  std::fprintf(stderr,
               "%s: standard output closed: stopping; the data read so far are searched and the "
               "files written\n",
               program_name);
}

StopWakesReads::StopWakesReads() {
  const std::lock_guard<std::mutex> lock(waking_mutex);
  waking = true;
  waking_thread = pthread_self();
}

StopWakesReads::~StopWakesReads() {
  const std::lock_guard<std::mutex> lock(waking_mutex);
  waking = false;
}

}  // namespace rapt
