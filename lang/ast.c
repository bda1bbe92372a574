/* ast.c - names and sizes for the syntax tree's enumerations (see ast.h). */
#include "ast.h"

const char *ast_op_text(ast_op op)
{
    static const char *const text[] = {
        [OP_ADD] = "+",  [OP_SUB] = "-",  [OP_MUL] = "*",  [OP_DIV] = "/",    [OP_FLOORDIV] = "//", [OP_MOD] = "%",
        [OP_POW] = "**", [OP_SHL] = "<<", [OP_SHR] = ">>", [OP_BITAND] = "&", [OP_BITOR] = "|",     [OP_BITXOR] = "^",
        [OP_LT] = "<",   [OP_LE] = "<=",  [OP_GT] = ">",   [OP_GE] = ">=",    [OP_EQ] = "==",       [OP_NE] = "!=",
        [OP_AND] = "&&", [OP_OR] = "||",  [OP_NOT] = "!",  [OP_NEG] = "-",    [OP_POS] = "+",       [OP_BITNOT] = "~",
    };
    return text[op];
}

static const struct {
    const char *name, *cuda;
    int size;
    bool is_float;
} ctypes[] = {
    [CT_HALF] = {"half", "__half", 2, true},       [CT_BF16] = {"bf16", "__nv_bfloat16", 2, true},
    [CT_FLOAT] = {"float", "float", 4, true},      [CT_DOUBLE] = {"double", "double", 8, true},
    [CT_INT8] = {"int8", "signed char", 1, false}, [CT_UINT8] = {"uint8", "unsigned char", 1, false},
    [CT_INT16] = {"int16", "short", 2, false},     [CT_UINT16] = {"uint16", "unsigned short", 2, false},
    [CT_INT] = {"int", "int", 4, false},           [CT_UINT] = {"uint", "unsigned int", 4, false},
    [CT_INT64] = {"int64", "long long", 8, false}, [CT_UINT64] = {"uint64", "unsigned long long", 8, false},
};

const char *ast_ctype_name(ast_ctype t)
{
    return ctypes[t].name;
}
const char *ast_ctype_cuda(ast_ctype t)
{
    return ctypes[t].cuda;
}
int ast_ctype_size(ast_ctype t)
{
    return ctypes[t].size;
}
bool ast_ctype_is_float(ast_ctype t)
{
    return ctypes[t].is_float;
}
