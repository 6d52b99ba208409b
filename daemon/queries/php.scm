; comP additions to tree-sitter-php's tags.scm: namespaces, traits and enums
; with their own kinds, enum cases, constructors, class and global constants
; (also `define()`). Earlier patterns win over later ones.

; A namespace is named by its whole path (App\Billing, scoped App.Billing);
; symbols.cc puts the declarations after a `namespace App\Billing;` in it.
(namespace_definition
  name: (namespace_name) @name) @definition.namespace

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

(enum_case
  name: (name) @name) @definition.constant

(method_declaration
  name: (name) @name
  (#eq? @name "__construct")) @definition.constructor

; Class, interface and global constants. The definition is the whole
; declaration so that its visibility decides is_exported.
(const_declaration
  (const_element (name) @name)) @definition.constant

((function_call_expression
  function: (name) @_function
  arguments: (arguments . (argument (string (string_content) @name)))) @definition.constant
  (#eq? @_function "define"))
