# Compiles the tree-sitter core and the pinned official grammars from the npm
# packages installed by `npm ci` in third_party/grammars. Nothing generated or
# downloaded is committed. Grammars are always optimised: parse speed bounds
# index speed, even in Debug builds. The core at -O3 parses 1-4% faster than
# at -O2 (bench/parse_bench, parse_only on TypeScript, JavaScript, Python and
# Java trees); the grammars' tables gain nothing from it. -march=native would
# add 4% more but make a binary that another CPU may not run.
set(TS_CORE ${COMP_GRAMMARS_DIR}/tree-sitter/vendor/tree-sitter/lib)
add_library(tree_sitter_core STATIC ${TS_CORE}/src/lib.c)
target_include_directories(tree_sitter_core PUBLIC ${TS_CORE}/include PRIVATE ${TS_CORE}/src)
target_compile_options(tree_sitter_core PRIVATE -O3 -w)
target_compile_definitions(tree_sitter_core PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
set_target_properties(tree_sitter_core PROPERTIES POSITION_INDEPENDENT_CODE ON)

# comp_grammar(ID DIR [SCANNER]): DIR holds src/parser.c and maybe
# src/scanner.c (or SCANNER, a fixed copy of it).
set(COMP_GRAMMAR_TARGETS "")
function(comp_grammar id dir)
  set(srcs ${dir}/src/parser.c)
  if(ARGC GREATER 2)
    list(APPEND srcs ${ARGV2})
  elseif(EXISTS ${dir}/src/scanner.c)
    list(APPEND srcs ${dir}/src/scanner.c)
  endif()
  add_library(grammar_${id} STATIC ${srcs})
  target_include_directories(grammar_${id} PRIVATE ${dir}/src)
  target_compile_options(grammar_${id} PRIVATE -O2 -w -g0)
  set(COMP_GRAMMAR_TARGETS ${COMP_GRAMMAR_TARGETS} grammar_${id} PARENT_SCOPE)
endfunction()

set(G ${COMP_GRAMMARS_DIR})
comp_grammar(rust ${G}/tree-sitter-rust)
comp_grammar(typescript ${G}/tree-sitter-typescript/typescript)
comp_grammar(tsx ${G}/tree-sitter-typescript/tsx)
comp_grammar(javascript ${G}/tree-sitter-javascript)
comp_grammar(python ${G}/tree-sitter-python)
comp_grammar(go ${G}/tree-sitter-go)
comp_grammar(html ${G}/tree-sitter-html)
comp_grammar(java ${G}/tree-sitter-java)
comp_grammar(c ${G}/tree-sitter-c)
comp_grammar(cpp ${G}/tree-sitter-cpp)
comp_grammar(c_sharp ${G}/tree-sitter-c-sharp)
comp_grammar(ruby ${G}/tree-sitter-ruby)
comp_grammar(php ${G}/tree-sitter-php/php)
comp_grammar(kotlin ${G}/@tree-sitter-grammars/tree-sitter-kotlin)
# tree-sitter-swift 0.7.1's scanner allocates its state with
# calloc(0, sizeof(struct ScannerState)) and then reads and writes 4 bytes
# of it: a heap overflow on every Swift file (AddressSanitizer; glibc's
# smallest block hides it). Fixed upstream after 0.7.1
# (alex-pinkus/tree-sitter-swift#554, calloc(1, ...)); until npm has a
# release with it, a copy with that one change is compiled. The build stops
# if the line is gone, so that a fixed release drops the copy.
set(swift_scanner ${G}/tree-sitter-swift/src/scanner.c)
file(READ ${swift_scanner} swift_scanner_text)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${swift_scanner})
string(FIND "${swift_scanner_text}" "calloc(0, sizeof(struct ScannerState))" swift_bug)
if(swift_bug EQUAL -1)
  message(FATAL_ERROR "tree-sitter-swift's scanner no longer has calloc(0, ...): remove its fixed copy from cmake/Grammars.cmake")
endif()
string(REPLACE "calloc(0, sizeof(struct ScannerState))" "calloc(1, sizeof(struct ScannerState))" swift_scanner_text
       "${swift_scanner_text}")
set(swift_scanner_fixed ${CMAKE_BINARY_DIR}/generated/tree-sitter-swift/scanner.c)
set(swift_scanner_old "")
if(EXISTS ${swift_scanner_fixed})
  file(READ ${swift_scanner_fixed} swift_scanner_old)
endif()
if(NOT swift_scanner_old STREQUAL swift_scanner_text)  # rewritten only when it changes: no needless rebuild
  file(WRITE ${swift_scanner_fixed} "${swift_scanner_text}")
endif()
comp_grammar(swift ${G}/tree-sitter-swift ${swift_scanner_fixed})
comp_grammar(lua ${G}/@tree-sitter-grammars/tree-sitter-lua)
comp_grammar(bash ${G}/tree-sitter-bash)

# Symbol queries, embedded as strings at build time so the binary carries the
# pinned versions without reading node_modules at run time:
#  - kUpstreamTags: each grammar's own queries/tags.scm (TypeScript's tags
#    query is meant to follow JavaScript's, so they are concatenated);
#  - kExtraQueries: comP's additions, daemon/queries/<id>.scm.
# comp_embed_query(OUT_VAR ID FILE...)
function(comp_embed_query out id)
  set(text "")
  foreach(f ${ARGN})
    file(READ ${f} part)
    string(APPEND text "${part}\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${f})
  endforeach()
  set(${out} "${${out}}    {\"${id}\", R\"__tsq__(${text})__tsq__\"},\n" PARENT_SCOPE)
endfunction()
set(COMP_UPSTREAM_TAGS "")
comp_embed_query(COMP_UPSTREAM_TAGS rust ${G}/tree-sitter-rust/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS javascript ${G}/tree-sitter-javascript/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS typescript ${G}/tree-sitter-javascript/queries/tags.scm ${G}/tree-sitter-typescript/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS tsx ${G}/tree-sitter-javascript/queries/tags.scm ${G}/tree-sitter-typescript/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS python ${G}/tree-sitter-python/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS go ${G}/tree-sitter-go/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS java ${G}/tree-sitter-java/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS c ${G}/tree-sitter-c/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS cpp ${G}/tree-sitter-cpp/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS c_sharp ${G}/tree-sitter-c-sharp/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS ruby ${G}/tree-sitter-ruby/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS php ${G}/tree-sitter-php/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS swift ${G}/tree-sitter-swift/queries/tags.scm)
comp_embed_query(COMP_UPSTREAM_TAGS lua ${G}/@tree-sitter-grammars/tree-sitter-lua/queries/tags.scm)

set(COMP_EXTRA_QUERIES "")
file(GLOB comp_query_files ${CMAKE_SOURCE_DIR}/daemon/queries/*.scm)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/daemon/queries)
foreach(f ${comp_query_files})
  get_filename_component(id ${f} NAME_WE)
  comp_embed_query(COMP_EXTRA_QUERIES ${id} ${f})
  # TSX shares TypeScript's additions (its grammar is TypeScript's plus JSX).
  if(id STREQUAL "typescript")
    comp_embed_query(COMP_EXTRA_QUERIES tsx ${f})
  endif()
endforeach()
# Reference queries (the dependency edges), daemon/queries/refs/<id>.scm.
# The ECMAScript family shares parts: ecmascript.scm (JavaScript and
# TypeScript alike), jsx.scm (JavaScript and TSX), typescript.scm (types).
set(COMP_REF_QUERIES "")
set(R ${CMAKE_SOURCE_DIR}/daemon/queries/refs)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${R})
file(GLOB comp_ref_files ${R}/*.scm)
foreach(f ${comp_ref_files})
  get_filename_component(id ${f} NAME_WE)
  if(NOT id MATCHES "^(ecmascript|jsx|typescript|javascript)$")
    comp_embed_query(COMP_REF_QUERIES ${id} ${f})
  endif()
endforeach()
comp_embed_query(COMP_REF_QUERIES javascript ${R}/ecmascript.scm ${R}/jsx.scm ${R}/javascript.scm)
comp_embed_query(COMP_REF_QUERIES typescript ${R}/ecmascript.scm ${R}/typescript.scm)
comp_embed_query(COMP_REF_QUERIES tsx ${R}/ecmascript.scm ${R}/typescript.scm ${R}/jsx.scm)
configure_file(${CMAKE_SOURCE_DIR}/cmake/embedded_queries.cc.in
               ${CMAKE_BINARY_DIR}/generated/embedded_queries.cc @ONLY)
set(COMP_EMBEDDED_QUERIES_CC ${CMAKE_BINARY_DIR}/generated/embedded_queries.cc)
