// The one Catch2 header the tests include: Catch2 2 ships a single header,
// Catch2 3 split it up. cmake/Dependencies.cmake sets SAGELINT_CATCH2_MAJOR.
#pragma once

#if defined(SAGELINT_CATCH2_MAJOR) && SAGELINT_CATCH2_MAJOR >= 3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif
