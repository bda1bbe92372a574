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
    int lanes;
    ast_ctype component;
} ctypes[] = {
    [CT_HALF] = {"half", "__half", 2, true, 1, CT_HALF},
    [CT_BF16] = {"bf16", "__nv_bfloat16", 2, true, 1, CT_BF16},
    [CT_FLOAT] = {"float", "float", 4, true, 1, CT_FLOAT},
    [CT_DOUBLE] = {"double", "double", 8, true, 1, CT_DOUBLE},
    [CT_INT8] = {"int8", "signed char", 1, false, 1, CT_INT8},
    [CT_UINT8] = {"uint8", "unsigned char", 1, false, 1, CT_UINT8},
    [CT_INT16] = {"int16", "short", 2, false, 1, CT_INT16},
    [CT_UINT16] = {"uint16", "unsigned short", 2, false, 1, CT_UINT16},
    [CT_INT] = {"int", "int", 4, false, 1, CT_INT},
    [CT_UINT] = {"uint", "unsigned int", 4, false, 1, CT_UINT},
    [CT_INT64] = {"int64", "long long", 8, false, 1, CT_INT64},
    [CT_UINT64] = {"uint64", "unsigned long long", 8, false, 1, CT_UINT64},
    [CT_FLOAT2] = {"float2", "float2", 8, true, 2, CT_FLOAT},
    [CT_FLOAT4] = {"float4", "float4", 16, true, 4, CT_FLOAT},
    [CT_DOUBLE2] = {"double2", "double2", 16, true, 2, CT_DOUBLE},
    [CT_INT2] = {"int2", "int2", 8, false, 2, CT_INT},
    [CT_INT4] = {"int4", "int4", 16, false, 4, CT_INT},
    [CT_UINT2] = {"uint2", "uint2", 8, false, 2, CT_UINT},
    [CT_UINT4] = {"uint4", "uint4", 16, false, 4, CT_UINT},
    [CT_DOUBLE4] = {"double4", "double4", 32, true, 4, CT_DOUBLE},
    [CT_CHAR2] = {"char2", "char2", 2, false, 2, CT_INT8},
    [CT_CHAR4] = {"char4", "char4", 4, false, 4, CT_INT8},
    [CT_UCHAR2] = {"uchar2", "uchar2", 2, false, 2, CT_UINT8},
    [CT_UCHAR4] = {"uchar4", "uchar4", 4, false, 4, CT_UINT8},
    [CT_SHORT2] = {"short2", "short2", 4, false, 2, CT_INT16},
    [CT_SHORT4] = {"short4", "short4", 8, false, 4, CT_INT16},
    [CT_USHORT2] = {"ushort2", "ushort2", 4, false, 2, CT_UINT16},
    [CT_USHORT4] = {"ushort4", "ushort4", 8, false, 4, CT_UINT16},
    [CT_HALF2] = {"half2", "__half2", 4, true, 2, CT_HALF},
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
int ast_ctype_lanes(ast_ctype t)
{
    return ctypes[t].lanes;
}
ast_ctype ast_ctype_component(ast_ctype t)
{
    return ctypes[t].component;
}
