; comP's symbol query for Bash (tree-sitter-bash ships no tags.scm):
; functions, and the script's own variables (never a function's locals):
; `readonly` and `declare -r` ones are constants. Earlier patterns win.

(function_definition
  name: (word) @name) @definition.function

(program
  (declaration_command
    "readonly"
    (variable_assignment
      name: (variable_name) @name)) @definition.constant)

((program
  (declaration_command
    (word) @_flag
    (variable_assignment
      name: (variable_name) @name)) @definition.constant)
  (#match? @_flag "^-[a-zA-Z]*r"))

(program
  (declaration_command
    (variable_assignment
      name: (variable_name) @name)) @definition.variable)

(program
  (variable_assignment
    name: (variable_name) @name) @definition.variable)
