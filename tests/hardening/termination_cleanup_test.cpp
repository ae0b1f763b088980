// An interrupted program leaves no temporary and no partial file: the table of pending
// temporaries and the SIGINT/SIGTERM/SIGHUP/SIGPIPE handler that empties it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>

#include <string>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/program.hpp"
#include "test_data.hpp"

namespace {

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
  }
  return names;
}

TEST(PendingTemporaries, RemovesOnlyTemporariesStillPending) {
  rapt::testing::ScratchDir dir;
  const std::string live = dir.file("live.tmp"), done = dir.file("done.tmp");
  rapt::testing::write_whole_file(live, "partial");
  rapt::testing::write_whole_file(done, "kept");
  rapt::PendingTemporary pending(live);
  rapt::PendingTemporary finished(done);
  finished.release();
  rapt::remove_pending_temporaries();
  EXPECT_FALSE(rapt::path_exists(live));
  EXPECT_TRUE(rapt::path_exists(done));
}

TEST(PendingTemporaries, ACommittedOutputIsNoLongerPending) {
  rapt::testing::ScratchDir dir;
  rapt::AtomicOutputFile out(dir.file("out.dat"), false);
  out.write("complete");
  out.commit();
  rapt::remove_pending_temporaries();
  EXPECT_EQ(rapt::testing::read_whole_file(dir.file("out.dat")), "complete");
}

// A child process writes half an output, then is sent `signal_number`: it must die by that
// signal and leave the directory empty.
void expect_clean_death_by(int signal_number) {
  rapt::testing::ScratchDir dir;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(signal_number, SIG_DFL);
    rapt::install_termination_cleanup();
    rapt::AtomicOutputFile out(dir.file("result.dat"), false);
    out.write("half of the data");
    std::fflush(out.stream());
    (void)!::write(ready[1], "x", 1);
    for (;;) ::pause();
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  EXPECT_EQ(entries(dir.path()).size(), 1u);  // the temporary, under its hidden name
  ::kill(child, signal_number);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ::close(ready[0]);
  ::close(ready[1]);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), signal_number);
  EXPECT_TRUE(entries(dir.path()).empty());
}

TEST(TerminationCleanup, InterruptLeavesNoTemporary) { expect_clean_death_by(SIGINT); }
TEST(TerminationCleanup, TerminateLeavesNoTemporary) { expect_clean_death_by(SIGTERM); }
TEST(TerminationCleanup, HangUpLeavesNoTemporary) { expect_clean_death_by(SIGHUP); }
TEST(TerminationCleanup, ABrokenPipeLeavesNoTemporary) { expect_clean_death_by(SIGPIPE); }

}  // namespace
