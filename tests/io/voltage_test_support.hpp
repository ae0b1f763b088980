// Helpers for the voltage-file tests: error text of a throwing call, canonical sample access
// and small GUPPI RAW files built card by card.
#pragma once
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/voltage_stream.hpp"

namespace rapt::testing {

// The message of the DataError `call` throws; fails the test if it throws nothing.
inline std::string data_error_text(const std::function<void()>& call) {
  try {
    call();
  } catch (const DataError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no DataError thrown";
  return "";
}

// Value k (0 = re, 1 = im) of channel c, antenna a, time t, polarisation p of `block`.
inline float voltage_value(const VoltageHeader& h, const VoltageBlock& block, int c, int a,
                           int64_t t, int p, int k = 0) {
  const size_t index =
      ((((size_t(c) * h.nant + a) * size_t(block.nsamples) + size_t(t)) * h.npol + p) *
       h.values_per_sample()) + k;
  return block.data.at(index);
}

// One 80-byte GUPPI card; `value` is written as given (quote strings yourself).
inline std::string guppi_card(const std::string& key, const std::string& value) {
  std::string card = key;
  card.resize(8, ' ');
  card += "= " + value;
  card.resize(80, ' ');
  return card;
}

inline std::string guppi_end_card() { return std::string("END").append(77, ' '); }

}  // namespace rapt::testing
