// The command runner: exit status pass-through, signals as 128+n, commands that cannot run;
// and the marker FIFO.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "cli/errors.hpp"
#include "power/command_runner.hpp"
#include "power/marker_fifo.hpp"
#include "test_data.hpp"

namespace {

int run(const std::vector<std::string>& argv) {
  rapt::SignalWaiter signals;
  const pid_t pid = rapt::spawn_command(argv, signals.original_mask(), "test");
  int status = 0;
  waitpid(pid, &status, 0);
  return rapt::exit_status_of(status);
}

TEST(CommandRunner, PassesTheExitStatusThrough) {
  EXPECT_EQ(run({"sh", "-c", "exit 0"}), 0);
  EXPECT_EQ(run({"sh", "-c", "exit 42"}), 42);
}

TEST(CommandRunner, GivesOneHundredTwentyEightPlusTheSignal) {
  EXPECT_EQ(run({"sh", "-c", "kill -TERM $$"}), 128 + SIGTERM);
  EXPECT_EQ(run({"sh", "-c", "kill -USR1 $$"}), 128 + SIGUSR1);  // blocked here, not there
}

TEST(CommandRunner, ExitsOneTwentySevenForAMissingCommand) {
  EXPECT_EQ(run({"/nonexistent/command"}), 127);
}

// The signals are sent to this thread: a process-directed kill() could land on a thread that
// another test started without the mask (the CUDA runtime's, on a GPU machine) and end the run.
// powersensor-read itself blocks them before it starts any thread.
TEST(SignalWaiter, TakesAPendingSignal) {
  rapt::SignalWaiter signals;
  pthread_kill(pthread_self(), SIGUSR1);
  bool from_terminal = true;
  EXPECT_EQ(signals.wait(1000, &from_terminal), SIGUSR1);
  EXPECT_FALSE(from_terminal);  // sent by a program, not typed at the terminal
  EXPECT_EQ(signals.wait(10), 0);
}

TEST(SignalWaiter, DiscardsSignalsStillPendingWhenItEnds) {
  {
    rapt::SignalWaiter signals;
    pthread_kill(pthread_self(), SIGUSR1);  // would end the test program if it were delivered
  }
  SUCCEED();
}

TEST(MarkerFifo, TurnsEachLineIntoAMarkerAndRemovesTheFifoItMade) {
  rapt::testing::ScratchDir dir;
  const std::string path = dir.file("markers");
  std::mutex mutex;
  std::vector<std::string> lines;
  {
    rapt::MarkerFifo fifo(path, [&](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.push_back(line);
    });
    struct stat info {};
    ASSERT_EQ(stat(path.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));
    for (const char* text : {"start\n", "fft\r\nend", "\n"}) {  // two writers, split lines
      const int fd = open(path.c_str(), O_WRONLY);
      ASSERT_GE(fd, 0);
      ASSERT_GT(write(fd, text, strlen(text)), 0);
      close(fd);
    }
    fifo.drain();
  }
  EXPECT_EQ(lines, (std::vector<std::string>{"start", "fft", "end"}));
  struct stat info {};
  EXPECT_NE(stat(path.c_str(), &info), 0) << "the FIFO it made was left behind";
}

TEST(MarkerFifo, RefusesAPathThatIsNotAFifo) {
  rapt::testing::ScratchDir dir;
  rapt::testing::write_whole_file(dir.file("plain"), "x");
  try {
    rapt::MarkerFifo fifo(dir.file("plain"), [](const std::string&) {});
    FAIL();
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("plain") + ": exists and is not a FIFO");
  }
}

}  // namespace
