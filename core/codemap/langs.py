"""Languages as data: the grammar of each language and one tree-sitter query per grammar.

Capture names carry the meaning: `@def.KIND` is a definition node and `@name` its name,
`@qualifier` an explicit owner (Go receiver, C++ `Foo::`), `@scope` a node that only names a
scope (Rust `impl`), `@ref.KIND` a referenced name with an optional `@receiver`, `@import` an
import statement handed to `imports.py`.
"""

from __future__ import annotations

from functools import lru_cache

from core.codemap.pyquery import PYTHON, PYTHON_CAPTURED
from my_agent.langs import LANGUAGES

GRAMMARS = {  # language name (my_agent.langs) → tree-sitter grammar
    "Python": "python",
    "JavaScript": "javascript",
    "TypeScript": "typescript",
    "Go": "go",
    "Rust": "rust",
    "Java": "java",
    "C": "c",
    "C++": "cpp",
    "Ruby": "ruby",
    "C#": "csharp",
    "PHP": "php",
}
GRAMMAR_BY_EXTENSION = {".tsx": "tsx"}  # TypeScript with JSX has a grammar of its own
EXTENSIONS: dict[str, str] = {  # extension → grammar: the files the code map parses
    ext: GRAMMAR_BY_EXTENSION.get(ext, GRAMMARS[lang])
    for ext, lang in LANGUAGES.items()
    if lang in GRAMMARS
}

FAMILIES = {"typescript": "javascript", "tsx": "javascript", "cpp": "c"}


@lru_cache(maxsize=65536)
def language_family(path: str) -> str:
    """Languages whose code can call each other's definitions share a family."""
    dot = path.rfind(".")
    lang = EXTENSIONS.get(path[dot:].lower(), "") if dot >= 0 else ""
    return FAMILIES.get(lang, lang)


CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "type", "module"})


_JS_COMMON = """
(function_declaration name: (identifier) @name body: (_) @body) @def.function
(generator_function_declaration name: (identifier) @name body: (_) @body) @def.function
(class_declaration name: (_) @name body: (_) @body) @def.class
(method_definition name: (_) @name body: (_) @body) @def.method
(program (lexical_declaration (variable_declarator name: (identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @def.function))
(program (export_statement declaration: (lexical_declaration (variable_declarator
  name: (identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @def.function)))
(program (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @def.variable))
(program (export_statement declaration: (lexical_declaration
  (variable_declarator name: (identifier) @name) @def.variable)))
(export_specifier name: (identifier) @name) @def.export
(call_expression function: (identifier) @ref.call)
(call_expression function: (member_expression object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @ref.call))
(member_expression object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @ref.attribute)
(new_expression constructor: (identifier) @ref.new)
(arguments (identifier) @ref.value)
(variable_declarator value: (identifier) @ref.value)
(pair value: (identifier) @ref.value)
(array (identifier) @ref.value)
(return_statement (identifier) @ref.value)
(assignment_expression right: (identifier) @ref.value)
(binary_expression right: (identifier) @ref.value)
(shorthand_property_identifier) @ref.value
(ternary_expression consequence: (identifier) @ref.value)
(ternary_expression alternative: (identifier) @ref.value)
(binary_expression left: (identifier) @ref.value)
(parenthesized_expression (identifier) @ref.value)
(spread_element (identifier) @ref.value)
(arrow_function body: (identifier) @ref.value)
(object_assignment_pattern right: (identifier) @ref.value)
(export_statement !source (export_clause (export_specifier name: (identifier) @ref.value)))
((member_expression object: (identifier) @ref.value) (#match? @ref.value "^[A-Z]"))
(import_statement) @import
(export_statement source: (string)) @import
(variable_declarator name: (identifier) @bind.var
  value: (new_expression constructor: [(identifier) (member_expression)] @type))
(assignment_expression left: (member_expression object: (this) property: (property_identifier)
  @bind.attr) right: (new_expression constructor: [(identifier) (member_expression)] @type))
(assignment_expression left: (member_expression object: (this) property: (property_identifier)
  @bind.attr) right: [(identifier) (member_expression)] @alias)
(variable_declarator name: (identifier) @bind.var value: [(identifier) (member_expression)] @alias)
"""

JAVASCRIPT = (
    _JS_COMMON
    + """
(class_heritage (identifier) @ref.inherit)
(class_heritage [(identifier) (member_expression)] @bind.base)
(field_definition property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @def.method
((jsx_opening_element name: (identifier) @ref.call) (#match? @ref.call "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @ref.call) (#match? @ref.call "^[A-Z]"))
"""
)

TYPESCRIPT = (
    _JS_COMMON
    + """
(abstract_class_declaration name: (_) @name body: (_) @body) @def.class
(interface_declaration name: (_) @name body: (_) @body) @def.interface
(type_alias_declaration name: (_) @name) @def.type
(enum_declaration name: (_) @name body: (_) @body) @def.enum
(function_signature name: (identifier) @name) @def.function
(abstract_method_signature name: (_) @name) @def.method
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @def.method
(extends_clause value: (identifier) @ref.inherit)
(implements_clause (type_identifier) @ref.inherit)
(type_identifier) @ref.type
(type_query (identifier) @ref.value)
(as_expression (identifier) @ref.value)
(satisfies_expression (identifier) @ref.value)
(non_null_expression (identifier) @ref.value)
(public_field_definition value: (identifier) @ref.value)
(extends_clause value: [(identifier) (member_expression)] @bind.base)
(internal_module name: (identifier) @name body: (_) @body) @def.module
(internal_module body: (statement_block [(lexical_declaration (variable_declarator
  name: (identifier) @name value: [(arrow_function body: (_) @body)
  (function_expression body: (_) @body)]) @def.function) (export_statement declaration:
  (lexical_declaration (variable_declarator name: (identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])
  @def.function))]))
(variable_declarator name: (identifier) @bind.var type: (type_annotation (type_identifier) @type))
(required_parameter pattern: (identifier) @bind.var type: (type_annotation (type_identifier) @type))
(optional_parameter pattern: (identifier) @bind.var type: (type_annotation (type_identifier) @type))
(required_parameter (accessibility_modifier) pattern: (identifier) @bind.attr
  type: (type_annotation (type_identifier) @type))
(public_field_definition name: (property_identifier) @bind.attr
  type: (type_annotation (type_identifier) @type))
(public_field_definition name: (property_identifier) @bind.attr
  value: (new_expression constructor: [(identifier) (member_expression)] @type))
"""
)

TSX = (
    TYPESCRIPT
    + """
((jsx_opening_element name: (identifier) @ref.call) (#match? @ref.call "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @ref.call) (#match? @ref.call "^[A-Z]"))
"""
)

GO = """
(function_declaration name: (identifier) @name body: (_) @body) @def.function
(method_declaration receiver: (parameter_list (parameter_declaration
  type: [(type_identifier) @qualifier (pointer_type (type_identifier) @qualifier)]))
  name: (field_identifier) @name body: (_) @body) @def.method
(type_spec name: (type_identifier) @name type: (struct_type) @body) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type) @body) @def.interface
(type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type)
  (map_type) (slice_type) (function_type) (pointer_type) (array_type) (channel_type)]) @def.type
(source_file (const_declaration (const_spec name: (identifier) @name) @def.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @def.variable))
(call_expression function: (identifier) @ref.call)
(call_expression function: (selector_expression operand: (_) @receiver
  field: (field_identifier) @ref.call))
(composite_literal type: (type_identifier) @ref.new)
(import_declaration) @import
"""

RUST = """
(function_item name: (identifier) @name body: (_) @body) @def.function
(function_signature_item name: (identifier) @name) @def.function
(struct_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(union_item name: (type_identifier) @name) @def.struct
(trait_item name: (type_identifier) @name body: (_) @body) @def.trait
(type_item name: (type_identifier) @name) @def.type
(mod_item name: (identifier) @name body: (_) @body) @def.module
(const_item name: (identifier) @name) @def.constant
(static_item name: (identifier) @name) @def.constant
(macro_definition name: (identifier) @name) @def.macro
(impl_item type: [(type_identifier) @name (generic_type type: (type_identifier) @name)
  (scoped_type_identifier name: (type_identifier) @name)]) @scope
(call_expression function: (identifier) @ref.call)
(call_expression function: (field_expression value: (_) @receiver
  field: (field_identifier) @ref.call))
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @ref.call))
(call_expression function: (generic_function function: (identifier) @ref.call))
(macro_invocation macro: (identifier) @ref.macro)
(struct_expression name: (type_identifier) @ref.new)
(impl_item trait: (type_identifier) @ref.inherit)
(use_declaration) @import
"""

JAVA = """
(class_declaration name: (identifier) @name body: (_) @body) @def.class
(interface_declaration name: (identifier) @name body: (_) @body) @def.interface
(enum_declaration name: (identifier) @name body: (_) @body) @def.enum
(record_declaration name: (identifier) @name body: (_) @body) @def.class
(annotation_type_declaration name: (identifier) @name body: (_) @body) @def.interface
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name body: (_) @body) @def.method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.constant
(method_invocation object: (_) @receiver name: (identifier) @ref.call)
(method_invocation !object name: (identifier) @ref.call)
(object_creation_expression type: (type_identifier) @ref.new)
(superclass (type_identifier) @ref.inherit)
(super_interfaces (type_list (type_identifier) @ref.inherit))
(import_declaration) @import
"""

C = """
(function_definition declarator: [(function_declarator declarator: (identifier) @name)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  (pointer_declarator declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name)))]
  body: (_) @body) @def.function
(struct_specifier name: (type_identifier) @name body: (_) @body) @def.struct
(union_specifier name: (type_identifier) @name body: (_) @body) @def.struct
(enum_specifier name: (type_identifier) @name body: (_) @body) @def.enum
(type_definition declarator: (type_identifier) @name) @def.type
(preproc_def name: (identifier) @name) @def.constant
(preproc_function_def name: (identifier) @name) @def.macro
(call_expression function: (identifier) @ref.call)
(call_expression function: (field_expression argument: (_) @receiver
  field: (field_identifier) @ref.call))
(preproc_include) @import
"""

CPP = """
(function_definition declarator: [(function_declarator declarator: [(identifier)
  (field_identifier) (operator_name) (destructor_name)] @name)
  (function_declarator declarator: (qualified_identifier scope: (_) @qualifier
    name: [(identifier) (operator_name) (destructor_name)] @name))
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  (reference_declarator (function_declarator declarator: (identifier) @name))]
  body: (_) @body) @def.function
(class_specifier name: (type_identifier) @name body: (_) @body) @def.class
(struct_specifier name: (type_identifier) @name body: (_) @body) @def.struct
(union_specifier name: (type_identifier) @name body: (_) @body) @def.struct
(enum_specifier name: (type_identifier) @name body: (_) @body) @def.enum
(namespace_definition name: (namespace_identifier) @name body: (_) @body) @def.module
(type_definition declarator: (type_identifier) @name) @def.type
(alias_declaration name: (type_identifier) @name) @def.type
(preproc_def name: (identifier) @name) @def.constant
(preproc_function_def name: (identifier) @name) @def.macro
(call_expression function: (identifier) @ref.call)
(call_expression function: (field_expression argument: (_) @receiver
  field: (field_identifier) @ref.call))
(call_expression function: (qualified_identifier scope: (_) @receiver name: (identifier) @ref.call))
(call_expression function: (template_function name: (identifier) @ref.call))
(new_expression type: (type_identifier) @ref.new)
(base_class_clause (type_identifier) @ref.inherit)
(preproc_include) @import
"""

RUBY = """
(method name: (_) @name) @def.function
(singleton_method name: (_) @name) @def.method
(class name: [(constant) (scope_resolution)] @name) @def.class
(module name: [(constant) (scope_resolution)] @name) @def.module
(assignment left: (constant) @name) @def.constant
(call receiver: (_) @receiver method: (identifier) @ref.call)
(call !receiver method: (identifier) @ref.call)
(superclass (constant) @ref.inherit)
((call method: (identifier) @_require) @import (#any-of? @_require "require" "require_relative"))
"""

CSHARP = """
(class_declaration name: (identifier) @name body: (_) @body) @def.class
(interface_declaration name: (identifier) @name body: (_) @body) @def.interface
(struct_declaration name: (identifier) @name body: (_) @body) @def.struct
(record_declaration name: (identifier) @name) @def.class
(enum_declaration name: (identifier) @name body: (_) @body) @def.enum
(namespace_declaration name: (_) @name body: (_) @body) @def.module
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name body: (_) @body) @def.method
(property_declaration name: (identifier) @name) @def.property
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @def.constant
(invocation_expression function: (identifier) @ref.call)
(invocation_expression function: (member_access_expression expression: _ @receiver
  name: (identifier) @ref.call))
(object_creation_expression type: (identifier) @ref.new)
(base_list (identifier) @ref.inherit)
(using_directive) @import
"""

PHP = """
(class_declaration name: (name) @name body: (_) @body) @def.class
(interface_declaration name: (name) @name body: (_) @body) @def.interface
(trait_declaration name: (name) @name body: (_) @body) @def.trait
(enum_declaration name: (name) @name body: (_) @body) @def.enum
(function_definition name: (name) @name body: (_) @body) @def.function
(method_declaration name: (name) @name) @def.method
(const_element (name) @name) @def.constant
(function_call_expression function: (name) @ref.call)
(scoped_call_expression scope: (_) @receiver name: (name) @ref.call)
(member_call_expression object: (_) @receiver name: (name) @ref.call)
(object_creation_expression (name) @ref.new)
(base_clause (name) @ref.inherit)
(class_interface_clause (name) @ref.inherit)
(namespace_use_declaration) @import
"""

QUERIES: dict[str, str] = {
    "python": PYTHON,
    "javascript": JAVASCRIPT,
    "typescript": TYPESCRIPT,
    "tsx": TSX,
    "go": GO,
    "rust": RUST,
    "java": JAVA,
    "c": C,
    "cpp": CPP,
    "ruby": RUBY,
    "csharp": CSHARP,
    "php": PHP,
}
CAPTURED: dict[str, str] = {"python": PYTHON_CAPTURED}
