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

; Class fields: a field holding a function is a method.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  !value) @definition.field

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: (_) @_value
  (#not-match? @_value "^(async\\s+)?(function\\b|(\\([^)]*\\)|[A-Za-z_$][A-Za-z0-9_$]*)\\s*=>)")) @definition.field

; Module level `const` bindings are constants, `let` and `var` ones variables;
; functions are upstream's, `require()` imports are not definitions.
(program
  (lexical_declaration
    "const"
    (variable_declarator
      name: (identifier) @name
      value: (_) @_value) @definition.constant)
  (#not-match? @_value "^(require\\s*\\(|(async\\s+)?(function\\b|(\\([^)]*\\)|[A-Za-z_$][A-Za-z0-9_$]*)\\s*=>))"))

(export_statement
  (lexical_declaration
    "const"
    (variable_declarator
      name: (identifier) @name
      value: (_) @_value) @definition.constant)
  (#not-match? @_value "^(require\\s*\\(|(async\\s+)?(function\\b|(\\([^)]*\\)|[A-Za-z_$][A-Za-z0-9_$]*)\\s*=>))"))

(program
  [
    (lexical_declaration
      "let"
      (variable_declarator
        name: (identifier) @name) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name) @definition.variable)
  ])

(export_statement
  [
    (lexical_declaration
      "let"
      (variable_declarator
        name: (identifier) @name) @definition.variable)
    (variable_declaration
      (variable_declarator
        name: (identifier) @name) @definition.variable)
  ])
