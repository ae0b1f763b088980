// --marker-fifo: a named pipe a script writes lines into; each line becomes a marker. The FIFO
// is created if missing (and then removed again) and is held open for writing by the reader
// too, so a writer closing it is not an end of file and many writers can come and go.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace rapt {

class MarkerFifo {
 public:
  // Throws DataError naming `path` if it exists and is not a FIFO, or cannot be made/opened.
  MarkerFifo(const std::string& path, std::function<void(const std::string&)> on_line);
  ~MarkerFifo();  // stops the reader; removes the FIFO if it made it
  MarkerFifo(const MarkerFifo&) = delete;
  MarkerFifo& operator=(const MarkerFifo&) = delete;

  // Reads what is already in the pipe and hands it on; the sampler calls this before its
  // last row so that markers written just before the command ended are not lost.
  void drain();

 private:
  void loop();
  void read_available();

  std::string path_;
  std::function<void(const std::string&)> on_line_;
  bool created_ = false;
  int fd_ = -1;
  std::string partial_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace rapt
