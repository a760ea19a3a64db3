//===- YamlConfig.h - A YAML config file into a ConfigDocument --*- C++ -*-===//

#ifndef OPMIG_SUPPORT_LIB_YAMLCONFIG_H
#define OPMIG_SUPPORT_LIB_YAMLCONFIG_H

#include "opmig/support/ConfigDocument.h"

namespace opmig {

/// parseConfig() for ConfigSyntax::Yaml: LLVM's YAML parser, one document.
llvm::Expected<ConfigDocument> parseYamlConfig(llvm::StringRef Text, const std::string &File,
                                               const std::string &Kind);

} // namespace opmig

#endif
