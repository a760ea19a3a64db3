//===- TemplateRenderer.h - A small Mustache subset over JSON ---*- C++ -*-===//
//
// Profiles render generated files from templates. The subset is what
// generated glue needs and nothing more:
//
//   {{name}}          the value at `name` (dotted paths: `op.name`)
//   {{#list}}..{{/list}}   repeated per element of an array (an element's
//                     fields shadow outer names; `{{.}}` is the element),
//                     or once when the value is true / a non-empty string
//   {{^list}}..{{/list}}   once when the value is false, empty or missing
//   {{! comment }}
//
// A section tag alone on its line does not leave a blank line behind. No
// HTML escaping: output is code. An unknown name is an error, not an empty
// string, so a typo in a profile never produces silently wrong code.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_TEMPLATERENDERER_H
#define OPMIG_MIGRATE_TEMPLATERENDERER_H

#include "nlohmann/json.hpp"

#include "llvm/Support/Error.h"

#include <string>

namespace opmig::migrate {

/// Renders `Template` with `Context`. `Origin` names the template in error
/// messages (`origin:line: unknown name 'x'`).
llvm::Expected<std::string> renderTemplate(const std::string &Template,
                                           const nlohmann::json &Context,
                                           const std::string &Origin);

} // namespace opmig::migrate

#endif
