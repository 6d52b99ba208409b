; comP additions to tree-sitter-javascript's tags.scm: constructors (upstream
; skips them), #private methods, getters and setters as properties, class
; fields, and module-level constants and variables.

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @definition.constructor

(method_definition
  name: (private_property_identifier) @name) @definition.method

(method_definition
  ["get" "set"]
  name: [(property_identifier) (private_property_identifier)] @name) @definition.property

; Class fields: a field holding a function is a method (the first pattern wins).
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name) @definition.field

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
