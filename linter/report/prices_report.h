// `sagelint prices`: the price table in use, per workload kind — how many of
// the instance types the API offers are priced, from which sources and dates,
// and why the others are not.
#ifndef SAGELINT_LINTER_REPORT_PRICES_REPORT_H_
#define SAGELINT_LINTER_REPORT_PRICES_REPORT_H_

#include <string>

#include "linter/cost/prices.h"

namespace sagelint {

std::string PricesText(const PriceTable& table);
std::string PricesJson(const PriceTable& table);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_PRICES_REPORT_H_
