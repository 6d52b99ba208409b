; comP reference patterns shared by JavaScript, TypeScript and TSX (see
; python.scm for the captures). @new marks `new X()`: a call of X's constructor.

(call_expression function: (identifier) @call)
(call_expression function: (member_expression object: (_) @receiver property: (property_identifier) @call))
(new_expression constructor: (identifier) @new)
(new_expression constructor: (member_expression object: (_) @receiver property: (property_identifier) @new))

; import x from "m"; import {a as b} from "m"; import * as ns from "m"; import "m"
(import_statement source: (string (string_fragment) @import.module))
(import_statement (import_clause (identifier) @import.default) source: (string (string_fragment) @import.module))
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (string (string_fragment) @import.module))
(import_statement (import_clause (namespace_import (identifier) @import.alias)) source: (string (string_fragment) @import.module))
; export {a as b} from "m"; export * from "m"
(export_statement (export_clause (export_specifier name: (_) @import.name alias: (_)? @import.alias))
  source: (string (string_fragment) @import.module))
(export_statement "*" @import.wildcard source: (string (string_fragment) @import.module))
; const x = require("m"); const {a, b: c} = require("m")
(variable_declarator name: (identifier) @import.alias
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import.module)))
  (#eq? @_require "require"))
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import.module)))
  (#eq? @_require "require"))
(variable_declarator
  name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias))
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import.module)))
  (#eq? @_require "require"))

; Variables of known type: `const x = new Foo()`, `this.x = new Foo()`.
(variable_declarator name: (identifier) @bind value: (new_expression constructor: (identifier) @new))
(assignment_expression left: (member_expression object: (this) property: (property_identifier) @bind.field)
  right: (new_expression constructor: (identifier) @new))
