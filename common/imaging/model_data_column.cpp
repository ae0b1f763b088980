#include "imaging/model_data_column.hpp"

#include "cli/errors.hpp"

#ifdef RAPT_WITH_CASACORE
#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/tables/DataMan/StandardStMan.h>
#include <casacore/tables/Tables/ArrColDesc.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableDesc.h>

#include <cmath>
#include <set>
#include <vector>
#endif

namespace rapt {

#ifndef RAPT_WITH_CASACORE

void write_model_data_column(const std::string& path, const VisibilitySet&, int, int) {
  throw UsageError(path + ": this build of rapt has no Measurement Set support (casacore): give "
                   "-o NAME.uvfits for the predicted visibilities");
}

#else

namespace {

// The one id the rows use, or `wanted`; UsageError naming `option` when several are used and
// none is given.
int chosen_id(const casacore::ScalarColumn<int>& column, int wanted, const std::string& path,
              const std::string& option) {
  if (wanted >= 0) return wanted;
  std::set<int> ids;
  for (casacore::rownr_t r = 0; r < column.nrow(); ++r) ids.insert(column(r));
  if (ids.size() > 1)
    throw UsageError(path + ": its rows use several " + option.substr(2) + "s: give " + option +
                     " to say which rows MODEL_DATA is written for");
  return ids.empty() ? 0 : *ids.begin();
}

void write_rows(const std::string& path, const VisibilitySet& vs, int data_desc_id, int field_id) {
  casacore::Table main(path, casacore::Table::Update);
  const casacore::ScalarColumn<int> ddid(main, "DATA_DESC_ID"), field(main, "FIELD_ID");
  const casacore::ScalarColumn<int> antenna1(main, "ANTENNA1"), antenna2(main, "ANTENNA2");
  const casacore::ScalarColumn<double> time(main, "TIME");
  const int dd = chosen_id(ddid, data_desc_id, path, "--data-desc-id");
  const int fd = chosen_id(field, field_id, path, "--field");
  // The rows the reader returned, in file order; each checked against the prediction's.
  std::vector<casacore::rownr_t> rows;
  for (casacore::rownr_t r = 0; r < main.nrow(); ++r)
    if (ddid(r) == dd && field(r) == fd) rows.push_back(r);
  if (rows.size() != vs.nrows())
    throw file_error(path, "has " + std::to_string(rows.size()) + " rows for DATA_DESC_ID " +
                               std::to_string(dd) + " and FIELD_ID " + std::to_string(fd) +
                               ", the prediction " + std::to_string(vs.nrows()));
  for (size_t i = 0; i < rows.size(); ++i)
    if (antenna1(rows[i]) != vs.antenna1[i] || antenna2(rows[i]) != vs.antenna2[i] ||
        std::abs(time(rows[i]) / 86400.0 - vs.time_mjd[i]) > 1e-6)
      throw file_error(path, "row " + std::to_string(rows[i]) + " is not the row the prediction "
                                                              "was made for");
  if (!main.tableDesc().isColumn("MODEL_DATA")) {
    casacore::TableDesc desc;
    desc.addColumn(casacore::ArrayColumnDesc<casacore::Complex>("MODEL_DATA", "model visibilities", 2));
    casacore::StandardStMan storage("ModelData");
    main.addColumn(desc, storage);
  }
  casacore::ArrayColumn<casacore::Complex> model(main, "MODEL_DATA");
  const casacore::IPosition shape(2, int(vs.nstokes()), int(vs.nchan()));
  casacore::Array<casacore::Complex> cell(shape);
  for (size_t i = 0; i < rows.size(); ++i) {
    // Column-major (product fastest), as vs.vis holds [channel][product] per row.
    std::copy_n(vs.vis.begin() + vs.index(i, 0, 0), vs.nchan() * vs.nstokes(), cell.data());
    model.put(rows[i], cell);
  }
  main.flush();
}

}  // namespace

void write_model_data_column(const std::string& path, const VisibilitySet& vs, int data_desc_id,
                             int field_id) {
  try {
    write_rows(path, vs, data_desc_id, field_id);
  } catch (const casacore::AipsError& e) {
    std::string text = e.getMesg();
    for (char& c : text)
      if (c == '\n') c = ' ';
    throw file_error(path, "cannot write MODEL_DATA: " + text);
  }
}

#endif

}  // namespace rapt
