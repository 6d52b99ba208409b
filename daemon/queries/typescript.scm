; comP additions to tree-sitter-javascript's and tree-sitter-typescript's
; tags.scm (both run on TypeScript). The JavaScript-level patterns mirror
; javascript.scm with TypeScript's node names (public_field_definition).
; tsx.scm is a link to this file: the TSX grammar has the same node types.

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @definition.constructor

(method_definition
  name: (private_property_identifier) @name) @definition.method

(method_definition
  ["get" "set"]
  name: [(property_identifier) (private_property_identifier)] @name) @definition.property

; Class fields: a field holding a function is a method (the first pattern wins).
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.field

; Types.
(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name) @definition.enum

(enum_body
  [
    (property_identifier) @name
    (enum_assignment name: (property_identifier) @name)
  ] @definition.constant)

(interface_body
  (property_signature
    name: (property_identifier) @name) @definition.property)

; `namespace A.B {}` and `declare module "pkg" {}`.
(internal_module
  name: [
    (identifier) @name
    (nested_identifier) @name
  ]) @definition.namespace

(module
  name: (string (string_fragment) @name)) @definition.module

; Module level `const` bindings are constants, `let` and `var` ones variables,
; those holding a function are functions (as upstream's, which the variable
; patterns would otherwise win over); `require()` imports are not definitions.
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

(program
  (lexical_declaration
    "const"
    (variable_declarator
      name: (identifier) @name
      value: (_) @_value) @definition.constant)
  (#not-match? @_value "^require\\s*\\("))

(export_statement
  (lexical_declaration
    "const"
    (variable_declarator
      name: (identifier) @name
      value: (_) @_value) @definition.constant)
  (#not-match? @_value "^require\\s*\\("))

(program
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value) @definition.variable)
  ]
  (#not-match? @_value "^require\\s*\\("))

(export_statement
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value) @definition.variable)
  ]
  (#not-match? @_value "^require\\s*\\("))
