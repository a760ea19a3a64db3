//===- AnalysisRenderers.h - AnalysisResult as JSON, text, DOT --*- C++ -*-===//

#ifndef OPMIG_TOOLS_ANALYSISRENDERERS_H
#define OPMIG_TOOLS_ANALYSISRENDERERS_H

#include "nlohmann/json.hpp"
#include "opmig/analyze/AnalysisResult.h"

#include <string>

namespace opmig {

/// The `opmig.analyze/2` document (docs/analyze-json-schema.md). `Source` is
/// `--source` as the user spelled it and tree files are relative to it; only
/// paths outside the tree (resolved external headers, the scratch copy) are
/// absolute.
nlohmann::json renderJson(const analyze::AnalysisResult &R, const std::string &Source);

/// A summary for people; `Verbose` adds symbols, flags and timings.
std::string renderText(const analyze::AnalysisResult &R, bool Verbose);

/// A Graphviz digraph of the closure files and their include edges.
std::string renderDot(const analyze::AnalysisResult &R);

} // namespace opmig

#endif
