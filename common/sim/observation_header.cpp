#include "sim/observation_header.hpp"

namespace rapt {

SigprocHeader sigproc_header_for(const ObservationSpec& obs, const std::string& output) {
  SigprocHeader h;
  const size_t slash = output.find_last_of('/');
  h.rawdatafile = output == "-" ? "stdout" : output.substr(slash == std::string::npos ? 0 : slash + 1);
  h.source_name = obs.source_name;
  h.telescope_id = obs.telescope_id;
  h.machine_id = obs.machine_id;
  h.data_type = 1;
  h.src_raj = obs.src_raj;
  h.src_dej = obs.src_dej;
  h.tstart = obs.tstart_mjd;
  h.tsamp = obs.tsamp_s;
  h.nbits = obs.nbits;
  h.fch1 = obs.fch1_mhz;
  h.foff = obs.foff_mhz;
  h.nchans = obs.nchans;
  h.nifs = 1;
  h.nbeams = 1;
  h.ibeam = 1;
  return h;
}

}  // namespace rapt
