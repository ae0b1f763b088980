// Running the measured command and waiting for it and for signals, without signal handlers:
// the signals of interest are blocked in every thread and taken one at a time with
// sigtimedwait, so no global state is needed and the sampler thread is never interrupted.
#pragma once
#include <signal.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace rapt {

// Blocks SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGCHLD for the life of the object. Create it
// before any thread starts, so the threads inherit the mask.
class SignalWaiter {
 public:
  SignalWaiter();
  ~SignalWaiter();  // discards pending signals of the set, restores the mask
  SignalWaiter(const SignalWaiter&) = delete;
  SignalWaiter& operator=(const SignalWaiter&) = delete;

  // The next pending signal, waiting at most `timeout_ms`; 0 if none came. `from_terminal`
  // tells a Ctrl-C/Ctrl-\\ from the terminal (which the command got too) from a kill().
  int wait(int timeout_ms, bool* from_terminal = nullptr);
  const sigset_t& original_mask() const { return original_; }

 private:
  sigset_t blocked_;
  sigset_t original_;
};

// Starts argv[0] (searched in PATH) with the signal mask of before SignalWaiter and the
// signal dispositions the program started with. If it cannot be executed, the child prints
// "<program>: <command>: <reason>" and exits 127 (not found) or 126.
pid_t spawn_command(const std::vector<std::string>& argv, const sigset_t& child_mask,
                    const std::string& program);

// The shell's rule: the exit code, or 128 + the signal number that killed it.
int exit_status_of(int wait_status);

}  // namespace rapt
