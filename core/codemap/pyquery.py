"""The tree-sitter queries for Python: definitions, references of every kind, and the bindings
the resolver types receivers by (see pybinds.py for what each `@bind.*` capture becomes);
both run as one query (parse.py): `PYTHON`'s matches one by one, `PYTHON_CAPTURED`'s nodes
gathered per capture and read in bulk (captured.py)."""

PYTHON = """
(function_definition name: (identifier) @name body: (_) @body) @def.function
(class_definition name: (identifier) @name body: (_) @body) @def.class
(module (expression_statement (assignment left: (identifier) @name) @def.variable))
(module (assignment left: (identifier) @name) @def.variable)
(module (call) @script)
(class_definition superclasses: (argument_list
  (attribute object: (_) @receiver attribute: (identifier) @ref.inherit)))
(decorator (attribute object: (_) @receiver attribute: (identifier) @ref.decorator))
(decorator (call function: (attribute object: (_) @receiver attribute: (identifier) @ref.decorator)))
[(import_statement) (import_from_statement)] @import
(assignment left: (identifier) @bind.var right: (call function: [(identifier) (attribute)] @type))
(assignment left: (attribute object: (identifier) @_self (#eq? @_self "self")
  attribute: (identifier) @bind.attr) right: (call function: [(identifier) (attribute)] @type))
(assignment left: (identifier) @bind.var right: [(identifier) (attribute) (subscript)
  (conditional_expression) (boolean_operator) (await) (list) (set) (tuple) (dictionary)] @value)
(assignment left: (attribute object: (identifier) @_self (#eq? @_self "self")
  attribute: (identifier) @bind.attr) right: [(identifier) (attribute) (subscript)
  (conditional_expression) (boolean_operator)] @value)
(module (assignment left: (identifier) @bind.var right: (binary_operator) @value))
(module (expression_statement (assignment left: (identifier) @bind.var
  right: (binary_operator) @value)))
(named_expression name: (identifier) @bind.var value: (_) @value)
(assignment left: [(pattern_list) (tuple_pattern)] @bind.unpack right: [(call) (identifier)
  (attribute) (subscript)] @value)
(with_item value: (as_pattern [(call) (await)] @entered
  alias: (as_pattern_target (identifier) @bind.var)))
(default_parameter name: (identifier) @bind.var value: (call) @value)
[(for_statement left: (identifier) @bind.var right: (_) @iter)
  (for_in_clause left: (identifier) @bind.var right: (_) @iter)]
((call function: (identifier) @_f arguments: (argument_list . (_) @iter . (keyword_argument
  name: (identifier) @_k value: (lambda parameters: (lambda_parameters . (identifier) @bind.var .)))))
  (#any-of? @_f "sorted" "min" "max") (#eq? @_k "key"))
((call function: (attribute object: (_) @iter attribute: (identifier) @_f) arguments:
  (argument_list . (keyword_argument name: (identifier) @_k
  value: (lambda parameters: (lambda_parameters . (identifier) @bind.var .))) .))
  (#eq? @_f "sort") (#eq? @_k "key"))
((call function: (identifier) @_f arguments: (argument_list . (lambda parameters:
  (lambda_parameters . (identifier) @bind.var .)) . (_) @iter .)) (#any-of? @_f "map" "filter"))
[(for_statement left: [(pattern_list) (tuple_pattern)] @bind.unpack right: (_) @iter)
  (for_in_clause left: [(pattern_list) (tuple_pattern)] @bind.unpack right: (_) @iter)]
(return_statement [(call) (identifier) (attribute) (subscript) (conditional_expression)
  (expression_list) (tuple)] @bind.gives)
(yield [(call) (identifier) (attribute)] @bind.yields)
((decorated_definition (decorator [(identifier) (attribute)] @_dec)
  definition: (function_definition name: (identifier) @bind.property))
  (#match? @_dec "(^|[.])(cached_)?property$"))
((decorated_definition (decorator) @_dec
  definition: (function_definition name: (identifier) @bind.fixture)) (#match? @_dec "fixture"))
((decorated_definition (decorator) @_dec definition: (function_definition
  parameters: (parameters (identifier) @bind.fixarg))) (#match? @_dec "fixture")
  (#not-eq? @bind.fixarg "self"))
((function_definition name: (identifier) @_fn parameters: (parameters (identifier) @bind.fixarg))
  (#match? @_fn "^test") (#not-eq? @bind.fixarg "self"))
(assignment left: (identifier) @bind.var type: (type) @type)
(assignment left: (attribute object: (identifier) @_self (#eq? @_self "self")
  attribute: (identifier) @bind.attr) type: (type) @type)
(typed_parameter (identifier) @bind.var type: (type) @type)
(typed_parameter [(list_splat_pattern (identifier) @bind.var)
  (dictionary_splat_pattern (identifier) @bind.var)] type: (type) @type)
(typed_default_parameter name: (identifier) @bind.var type: (type) @type)
(function_definition return_type: (type) @bind.returns)
([(if_statement condition: (call function: (identifier) @_f arguments: (argument_list .
  (identifier) @bind.narrow . [(identifier) (attribute) (tuple)] @type .)) consequence: (block) @span)
  (elif_clause condition: (call function: (identifier) @_f arguments: (argument_list .
  (identifier) @bind.narrow . [(identifier) (attribute) (tuple)] @type .)) consequence: (block) @span)]
  (#eq? @_f "isinstance"))
((assert_statement (call function: (identifier) @_f arguments: (argument_list .
  (identifier) @bind.narrow . [(identifier) (attribute) (tuple)] @type .)))
  (#eq? @_f "isinstance"))
(assignment left: (subscript value: (identifier) @bind.var)
  right: [(call) (identifier) (attribute)] @item)
(class_definition superclasses: (argument_list [(identifier) (attribute)
  (subscript value: [(identifier) (attribute)])] @bind.base))
((assignment left: (identifier) @_all
  right: [(list (string (string_content) @bind.all)) (tuple (string (string_content) @bind.all))])
  (#eq? @_all "__all__"))
"""

# Patterns of one capture each, read in bulk (a node list per capture): the bulk of a
# Python file's references and of the names that can hide a module's. `@chain.attribute` is a
# whole `x.name` node (its receiver and name are read from its bytes, and whether it is called
# from the bytes after it: captured.py).
PYTHON_CAPTURED = """
(call function: (identifier) @ref.call)
(class_definition superclasses: (argument_list (identifier) @ref.inherit))
(decorator (identifier) @ref.decorator)
(decorator (call function: (identifier) @ref.decorator))
(attribute object: (_) attribute: (identifier)) @chain.attribute
(type (identifier) @ref.type)
(type (generic_type (identifier) @ref.type))
(type (subscript value: (identifier) @ref.type))
(parameters [(identifier) @bind.local (default_parameter name: (identifier) @bind.local)
  (typed_parameter (identifier) @bind.local) (typed_default_parameter name: (identifier) @bind.local)
  (list_splat_pattern (identifier) @bind.local) (dictionary_splat_pattern (identifier) @bind.local)])
(lambda_parameters [(identifier) @bind.span (default_parameter name: (identifier) @bind.span)
  (list_splat_pattern (identifier) @bind.span) (dictionary_splat_pattern (identifier) @bind.span)])
(for_in_clause left: [(identifier) @bind.span (pattern_list (identifier) @bind.span)
  (tuple_pattern (identifier) @bind.span)])
(for_statement left: [(identifier) @bind.local (pattern_list (identifier) @bind.local)
  (tuple_pattern (identifier) @bind.local)])
(as_pattern_target [(identifier) @bind.local (tuple (identifier) @bind.local)])
(assignment left: [(identifier) @bind.local (pattern_list (identifier) @bind.local)
  (tuple_pattern (identifier) @bind.local) (list_pattern (identifier) @bind.local)
  (pattern_list (list_splat_pattern (identifier) @bind.local))])
(augmented_assignment left: (identifier) @bind.local)
(named_expression name: (identifier) @bind.local)
(global_statement (identifier) @bind.global)
(nonlocal_statement (identifier) @bind.global)
"""
