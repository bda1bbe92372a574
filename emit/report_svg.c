/* report_svg.c - the report's HTML and SVG primitives (report.h): escaping, numbers,
 * ticks, the colour ramp, a chart's frame and axes. Every string that comes from a
 * results file reaches the page through report_esc. */
#include "report.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void report_esc(strbuf *o, const char *s)
{
    if (!s)
        return;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '&': sb_add(o, "&amp;"); break;
        case '<': sb_add(o, "&lt;"); break;
        case '>': sb_add(o, "&gt;"); break;
        case '"': sb_add(o, "&quot;"); break;
        case '\'': sb_add(o, "&#39;"); break;
        default:
            if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
                sb_add(o, "\xEF\xBF\xBD"); /* U+FFFD */
            else
                sb_addc(o, (char)*p);
        }
    }
}

void report_num(strbuf *o, double v)
{
    if (!isfinite(v)) {
        sb_add(o, "n/a");
        return;
    }
    double a = fabs(v);
    if (a == 0)
        sb_add(o, "0");
    else if (a >= 1e7 || a < 1e-3)
        sb_printf(o, "%.3e", v);
    else if (a >= 1000)
        sb_printf(o, "%.0f", v);
    else if (a >= 100)
        sb_printf(o, "%.1f", v);
    else if (a >= 10)
        sb_printf(o, "%.2f", v);
    else if (a >= 1)
        sb_printf(o, "%.3f", v);
    else
        sb_printf(o, "%.4f", v);
}

int report_ticks(double *ticks, int max, double lo, double hi)
{
    if (!isfinite(lo) || !isfinite(hi) || max < 2)
        return 0;
    if (hi <= lo) {
        ticks[0] = lo;
        return 1;
    }
    double raw = hi / (max - 1) - lo / (max - 1); /* (hi - lo) / (max - 1) may overflow */
    double mag = pow(10, floor(log10(raw)));
    double step = mag;
    static const double mult[] = {1, 2, 5, 10};
    for (int k = 0; k < 4; k++)
        if (mag * mult[k] >= raw) {
            step = mag * mult[k];
            break;
        }
    int n = 0;
    for (double t = ceil(lo / step) * step; t <= hi + step * 1e-9 && n < max; t += step)
        ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
    return n;
}

void report_ramp(char out[8], double t)
{
    /* viridis at 9 stops: perceptually even, readable in grey and by most colour-blind
     * readers. */
    static const unsigned char stops[9][3] = {
        {68, 1, 84},    {71, 44, 122}, {59, 81, 139},  {44, 113, 142}, {33, 144, 141},
        {39, 173, 129}, {92, 200, 99}, {170, 220, 50}, {253, 231, 37},
    };
    if (!isfinite(t)) {
        snprintf(out, 8, "#d9d9d9");
        return;
    }
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double pos = t * 8;
    int k = (int)pos;
    if (k >= 8)
        k = 7;
    double f = pos - k;
    int rgb[3];
    for (int c = 0; c < 3; c++)
        rgb[c] = (int)lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c]));
    snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 0xff, rgb[1] & 0xff, rgb[2] & 0xff);
}

double report_frac(double v, double lo, double hi)
{
    if (!(hi > lo))
        return NAN;
    double width = hi - lo;
    if (isfinite(width) && isfinite(v - lo))
        return (v - lo) / width;
    return (v * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5); /* halves: no overflow */
}

/* A share of an axis as a px position from `from` to `to`: the middle when not known,
 * and never far outside the plot (whatever the value, the SVG gets a plain number). */
static double place(double t, double from, double to)
{
    if (!isfinite(t))
        t = 0.5;
    t = t < -1 ? -1 : t > 2 ? 2 : t;
    return from + t * (to - from);
}

double report_x(const report_frame *f, double v)
{
    return place(report_frac(v, f->xlo, f->xhi), f->x0, f->x1);
}

double report_y(const report_frame *f, double v)
{
    return place(report_frac(v, f->ylo, f->yhi), f->y1, f->y0);
}

/* d, saturated to the finite doubles. */
static double saturate(double d)
{
    return d > DBL_MAX ? DBL_MAX : d < -DBL_MAX ? -DBL_MAX : d;
}

void report_pad(double *lo, double *hi)
{
    double half = *hi * 0.5 - *lo * 0.5; /* finite for any finite bounds */
    if (!(half > 0))
        half = fabs(*lo) > 0 ? fabs(*lo) * 0.5 : 0.5;
    *lo = saturate(*lo - half * 0.1);
    *hi = saturate(*hi + half * 0.1);
}

void report_point(strbuf *o, const report_frame *f, report_range xr, report_range yr, double x, double y, double dx,
                  const char *cls, const char *radius, const char *label)
{
    bool xin = report_in(xr, x), yin = report_in(yr, y);
    double px = xin ? report_x(f, x) + dx : x < xr.lo ? f->x0 : f->x1;
    double py = yin ? report_y(f, y) : y < yr.lo ? f->y1 : f->y0;
    if (xin && yin) {
        sb_printf(o, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"", cls, px, py, radius);
        if (!label) {
            sb_add(o, "/>\n");
            return;
        }
        sb_add(o, "><title>");
        report_esc(o, label);
        sb_add(o, "</title></circle>\n");
        return;
    }
    sb_printf(o, "<circle class=\"off\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", px, py);
    if (label) {
        report_esc(o, label);
        sb_add(o, ": ");
    }
    sb_add(o, "off the scale (");
    if (!xin) {
        sb_add(o, "x = ");
        report_num(o, x);
    }
    if (!yin) {
        sb_add(o, xin ? "y = " : ", y = ");
        report_num(o, y);
    }
    sb_add(o, ")</title></circle>\n");
}

void report_svg_open(strbuf *o, int w, int h, const char *title)
{
    sb_printf(o, "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", w,
              h, w, h);
    report_esc(o, title);
    sb_add(o, "\"><title>");
    report_esc(o, title);
    sb_add(o, "</title>\n");
}

void report_svg_close(strbuf *o)
{
    sb_add(o, "</svg>\n");
}

void report_text(strbuf *o, double x, double y, const char *anchor, const char *cls, const char *text)
{
    sb_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y, anchor);
    if (cls)
        sb_printf(o, " class=\"%s\"", cls);
    sb_addc(o, '>');
    report_esc(o, text);
    sb_add(o, "</text>\n");
}

/* A tick's number, short. */
static void tick_label(char *buf, size_t size, double v)
{
    strbuf b = STRBUF_INIT;
    report_num(&b, v);
    snprintf(buf, size, "%s", sb_ok(&b) ? sb_cstr(&b) : "");
    sb_free(&b);
    /* trailing zeros of a fixed-point number: 0.5000 -> 0.5 */
    if (strchr(buf, '.') && !strchr(buf, 'e')) {
        char *end = buf + strlen(buf) - 1;
        while (end > buf && *end == '0')
            *end-- = '\0';
        if (*end == '.')
            *end = '\0';
    }
}

void report_short(char *buf, size_t size, const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) {
        snprintf(buf, size, "%s", s);
        return;
    }
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    snprintf(buf, size, "%.*s\xE2\x80\xA6", (int)max, s);
}

void report_frame_grid(strbuf *o, const report_frame *f, char axis, int most)
{
    sb_printf(o, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", f->x0, f->y0,
              f->x1 - f->x0, f->y1 - f->y0);
    double ticks[12];
    int nt = axis == 'x' ? report_ticks(ticks, most, f->xlo, f->xhi) : report_ticks(ticks, most, f->ylo, f->yhi);
    for (int k = 0; k < nt; k++) {
        strbuf n = STRBUF_INIT;
        report_num(&n, ticks[k]);
        const char *num = sb_ok(&n) ? sb_cstr(&n) : "";
        if (axis == 'x') {
            double x = report_x(f, ticks[k]);
            sb_printf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, f->y0, x,
                      f->y1);
            report_text(o, x, f->y1 + 16, "middle", "num", num);
        } else {
            double y = report_y(f, ticks[k]);
            sb_printf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", f->x0, y, f->x1,
                      y);
            report_text(o, f->x0 - 5, y + 4, "end", "num", num);
        }
        sb_free(&n);
    }
}

void report_axes(strbuf *o, const report_frame *f, const char *xlabel, const char *ylabel)
{
    char cut[64];
    sb_printf(o, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", f->x0, f->y0,
              f->x1 - f->x0, f->y1 - f->y0);
    double ticks[12];
    char buf[64];
    int n = report_ticks(ticks, 7, f->xlo, f->xhi);
    for (int k = 0; k < n; k++) {
        double x = report_x(f, ticks[k]);
        sb_printf(o, "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, f->y1, x,
                  f->y1 + 4);
        tick_label(buf, sizeof buf, ticks[k]);
        report_text(o, x, f->y1 + 16, "middle", "num", buf);
    }
    n = report_ticks(ticks, 6, f->ylo, f->yhi);
    for (int k = 0; k < n; k++) {
        double y = report_y(f, ticks[k]);
        sb_printf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", f->x0, y, f->x1, y);
        tick_label(buf, sizeof buf, ticks[k]);
        report_text(o, f->x0 - 6, y + 4, "end", "num", buf);
    }
    if (xlabel) {
        report_short(cut, sizeof cut, xlabel, 40);
        report_text(o, (f->x0 + f->x1) / 2, f->y1 + 34, "middle", "axis", cut);
    }
    if (ylabel) {
        sb_printf(o, "<text class=\"axis\" text-anchor=\"middle\" transform=\"translate(%.1f %.1f) rotate(-90)\">",
                  f->x0 - 52, (f->y0 + f->y1) / 2);
        report_short(cut, sizeof cut, ylabel, 30);
        report_esc(o, cut);
        sb_add(o, "</text>\n");
    }
}
