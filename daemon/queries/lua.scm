; comP additions to tree-sitter-lua's tags.scm: functions stored in tables
; carry the table in their scope (`function M.new` is M.new, `Inventory:add`
; is Inventory.add), `local f = function` spans its `local`, table fields
; holding functions are their own definitions, and the chunk's UPPER_CASE
; names and table values are constants and variables. Earlier patterns win.

(function_declaration
  name: (dot_index_expression
    table: (_) @scope
    field: (identifier) @name)) @definition.function

(function_declaration
  name: (method_index_expression
    table: (_) @scope
    method: (identifier) @name)) @definition.method

(assignment_statement
  (variable_list
    .
    name: (dot_index_expression
      table: (_) @scope
      field: (identifier) @name))
  (expression_list
    .
    value: (function_definition))) @definition.function

(variable_declaration
  (assignment_statement
    (variable_list
      .
      name: (identifier) @name)
    (expression_list
      .
      value: (function_definition)))) @definition.function

(field
  name: (identifier) @name
  value: (function_definition)) @definition.function

; The chunk's own names (never a function's locals).
((chunk
  (variable_declaration
    (assignment_statement
      (variable_list
        .
        name: (identifier) @name))) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]+$"))

((chunk
  (assignment_statement
    (variable_list
      .
      name: [
        (identifier) @name
        (dot_index_expression
          table: (_) @scope
          field: (identifier) @name)
      ])) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]+$"))

(chunk
  (variable_declaration
    (assignment_statement
      (variable_list
        .
        name: (identifier) @name)
      (expression_list
        .
        value: (table_constructor)))) @definition.variable)

(chunk
  (assignment_statement
    (variable_list
      .
      name: [
        (identifier) @name
        (dot_index_expression
          table: (_) @scope
          field: (identifier) @name)
      ])
    (expression_list
      .
      value: (table_constructor))) @definition.variable)
