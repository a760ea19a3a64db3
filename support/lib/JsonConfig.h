//===- JsonConfig.h - A JSON config file into a ConfigDocument --*- C++ -*-===//

#ifndef OPMIG_SUPPORT_LIB_JSONCONFIG_H
#define OPMIG_SUPPORT_LIB_JSONCONFIG_H

#include "opmig/support/ConfigDocument.h"

namespace opmig {

/// parseConfig() for ConfigSyntax::Json: nlohmann's parser for the value,
/// then a scan of the text for where each node starts.
llvm::Expected<ConfigDocument> parseJsonConfig(llvm::StringRef Text, const std::string &File,
                                               const std::string &Kind);

} // namespace opmig

#endif
