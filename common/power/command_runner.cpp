#include "power/command_runner.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "cli/errors.hpp"

namespace rapt {

SignalWaiter::SignalWaiter() {
  sigemptyset(&blocked_);
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGCHLD}) sigaddset(&blocked_, signal);
  pthread_sigmask(SIG_BLOCK, &blocked_, &original_);
  // An inherited "ignore SIGCHLD" would reap the command before its status could be read.
  std::signal(SIGCHLD, SIG_DFL);
}

SignalWaiter::~SignalWaiter() {
  // Take what is still pending first: a late SIGUSR1 would otherwise end the program on unblock.
  const timespec no_wait{0, 0};
  while (sigtimedwait(&blocked_, nullptr, &no_wait) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &original_, nullptr);
}

int SignalWaiter::wait(int timeout_ms, bool* from_terminal) {
  timespec timeout{timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
  while (true) {
    siginfo_t info{};
    const int signal = sigtimedwait(&blocked_, &info, &timeout);
    if (signal > 0) {
      // The terminal driver sends its signals from the kernel, to the whole process group.
      if (from_terminal) *from_terminal = info.si_code == SI_KERNEL;
      return signal;
    }
    if (errno == EAGAIN) return 0;
    if (errno != EINTR) return 0;
  }
}

pid_t spawn_command(const std::vector<std::string>& argv, const sigset_t& child_mask,
                    const std::string& program) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw DataError("cannot start " + argv[0] + ": fork: " + errno_text());
  if (pid == 0) {
    // Only the mask was changed (no handlers), so the command inherits the dispositions
    // powersensor-read started with, such as nohup's ignored SIGHUP.
    sigprocmask(SIG_SETMASK, &child_mask, nullptr);
    execvp(args[0], args.data());
    const int error = errno;
    std::fprintf(stderr, "%s: %s: %s\n", program.c_str(), args[0], std::strerror(error));
    _exit(error == ENOENT ? 127 : 126);
  }
  return pid;
}

int exit_status_of(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

}  // namespace rapt
