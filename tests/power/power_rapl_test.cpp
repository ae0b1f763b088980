// RAPL on a fake powercap tree: domain discovery, counter reading, wrap-around, permissions.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/errors.hpp"
#include "power/rapl_source.hpp"
#include "test_data.hpp"

namespace {

using rapt::testing::ScratchDir;
using rapt::testing::write_whole_file;

void make_domain(const std::string& root, const std::string& entry, const std::string& name,
                 unsigned long long energy_uj, unsigned long long range_uj) {
  const std::string dir = root + "/class/powercap/" + entry;
  ASSERT_EQ(system(("mkdir -p '" + dir + "'").c_str()), 0);
  write_whole_file(dir + "/name", name + "\n");
  write_whole_file(dir + "/energy_uj", std::to_string(energy_uj) + "\n");
  write_whole_file(dir + "/max_energy_range_uj", std::to_string(range_uj) + "\n");
}

void set_energy(const std::string& root, const std::string& entry, unsigned long long uj) {
  write_whole_file(root + "/class/powercap/" + entry + "/energy_uj", std::to_string(uj) + "\n");
}

TEST(RaplDomains, FindsPackagesAndTheirDramButNotCores) {
  ScratchDir root;
  make_domain(root.path(), "intel-rapl:0", "package-0", 10, 1000);
  make_domain(root.path(), "intel-rapl:0:0", "core", 5, 1000);
  make_domain(root.path(), "intel-rapl:0:1", "dram", 7, 1000);
  make_domain(root.path(), "intel-rapl:1", "package-1", 10, 1000);
  make_domain(root.path(), "intel-rapl-mmio:0", "package-0", 10, 1000);
  const std::vector<rapt::RaplDomain> domains = rapt::find_rapl_domains(root.path());
  ASSERT_EQ(domains.size(), 3u);
  EXPECT_EQ(domains[0].sensor_name, "package-0");
  EXPECT_EQ(domains[1].sensor_name, "package-0.dram");
  EXPECT_EQ(domains[2].sensor_name, "package-1");
  EXPECT_EQ(domains[0].max_energy_range_uj, 1000u);
}

TEST(WrappingCounter, UnwrapsAtTheMaximumRange) {
  rapt::WrappingCounter counter(1000);
  EXPECT_EQ(counter.update(900), 0u);
  EXPECT_EQ(counter.update(950), 50u);
  EXPECT_EQ(counter.update(20), 50u + 50u + 20u);  // 950 -> 1000 (= 0) -> 20
  EXPECT_EQ(counter.update(20), 120u);
}

TEST(RaplSource, ReportsJoulesSinceOpenAcrossAWrap) {
  ScratchDir root;
  const unsigned long long range = 262143328850ULL;  // a real max_energy_range_uj
  make_domain(root.path(), "intel-rapl:0", "package-0", range - 2000000, range);
  make_domain(root.path(), "intel-rapl:0:1", "dram", 500, range);
  rapt::RaplSource source(root.path());
  ASSERT_EQ(source.sensors().size(), 2u);
  EXPECT_TRUE(source.sensors()[0].has_energy_counter);
  set_energy(root.path(), "intel-rapl:0", 3000000);  // wrapped: 2 J + 3 J
  set_energy(root.path(), "intel-rapl:0:1", 1500500);
  std::vector<rapt::SensorValue> values = source.read();
  EXPECT_DOUBLE_EQ(values[0].joules, 5.0);
  EXPECT_DOUBLE_EQ(values[1].joules, 1.5);
  EXPECT_GT(values[0].watts, 0.0);  // the rate since the last read
  set_energy(root.path(), "intel-rapl:0", 4000000);
  values = source.read();
  EXPECT_DOUBLE_EQ(values[0].joules, 6.0);
}

TEST(RaplSource, SaysWhenThereIsNoPowercapTree) {
  ScratchDir root;
  try {
    rapt::RaplSource source(root.path());
    FAIL();
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              root.path() + "/class/powercap: no RAPL domain (intel-rapl:N) found");
  }
}

// The message a user without root sees. Under root, the check runs in a child that drops to
// an unprivileged user, since root reads files whatever their mode.
TEST(RaplSource, ExplainsRootOnlyCounters) {
  ScratchDir root;
  make_domain(root.path(), "intel-rapl:0", "package-0", 10, 1000);
  const std::string counter = root.path() + "/class/powercap/intel-rapl:0/energy_uj";
  chmod(counter.c_str(), 0);
  chmod(root.path().c_str(), 0755);
  const std::string expected = counter + ": permission denied; RAPL counters are readable by "
                                         "root only since CVE-2020-8694";
  const auto message_is_right = [&] {
    try {
      rapt::RaplSource source(root.path());
    } catch (const rapt::DataError& e) {
      return std::string(e.what()).rfind(expected, 0) == 0;
    }
    return false;
  };
  if (geteuid() != 0) {
    EXPECT_TRUE(message_is_right());
    return;
  }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(2);
    _exit(message_is_right() ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 2) GTEST_SKIP() << "cannot drop root here";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "the error did not start with: " << expected;
}

TEST(RaplSource, RejectsACounterThatIsNotANumber) {
  ScratchDir root;
  make_domain(root.path(), "intel-rapl:0", "package-0", 10, 1000);
  set_energy(root.path(), "intel-rapl:0", 0);
  write_whole_file(root.path() + "/class/powercap/intel-rapl:0/energy_uj", "n/a\n");
  EXPECT_THROW(rapt::RaplSource source(root.path()), rapt::DataError);
}

}  // namespace
