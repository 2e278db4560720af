/* Stands in for the run-time CPU dispatch header libvpx's build generates:
   the harnesses call each version of a function by its own name, so the
   types its files use are all they need from here (each harness compiles
   the C reference and the SIMD file in one unit, definitions before use). */
#ifndef SYMCROSS_VPX_DSP_RTCD_H
#define SYMCROSS_VPX_DSP_RTCD_H
#include <stddef.h>
#include "vpx_config.h"
#include "vpx/vpx_integer.h"
#include "vpx_dsp/vpx_dsp_common.h"

/* Called before their definitions in variance.c; the second has only a C
   version, which the generated header names by its plain name. */
void vpx_comp_avg_pred_c(uint8_t *comp_pred, const uint8_t *pred, int width,
                         int height, const uint8_t *ref, int ref_stride);
void vpx_highbd_comp_avg_pred_c(uint16_t *comp_pred, const uint16_t *pred,
                                int width, int height, const uint16_t *ref,
                                int ref_stride);
#define vpx_highbd_comp_avg_pred vpx_highbd_comp_avg_pred_c
#endif
