#!/usr/bin/env python3
"""Writes a UPF v2 norm-conserving pseudopotential for hydrogen with no projector (a local-only,
erf-screened Coulomb potential) to stdout: Debian's Quantum ESPRESSO ships none, and pw.x needs one.
V_loc(r) = -2 erf(r / rc) / r Ry; the atomic charge is the 1s density, 4 pi r^2 rho = 4 r^2 e^(-2r)."""
import math

MESH, XMIN, DX, ZMESH, RC = 1200, -7.0, 0.0125, 1.0, 0.5
r = [math.exp(XMIN + i * DX) / ZMESH for i in range(MESH)]
rab = [x * DX for x in r]
vloc = [-2.0 * math.erf(x / RC) / x for x in r]
rho = [4.0 * x * x * math.exp(-2.0 * x) for x in r]


def block(tag, values):
    rows = [" ".join(f"{v:.14e}" for v in values[i:i + 4]) for i in range(0, len(values), 4)]
    return f'<{tag} type="real" size="{len(values)}" columns="4">\n' + "\n".join(rows) + f"\n</{tag}>"


print(f'''<UPF version="2.0.1">
<PP_INFO>
mpiguard tests/apps: local-only hydrogen, V(r) = -2 erf(r/{RC})/r Ry
</PP_INFO>
<PP_HEADER generated="tests/apps/h_local_upf.py" author="mpiguard" date="" comment=""
 element="H" pseudo_type="NC" relativistic="no" is_ultrasoft="F" is_paw="F" is_coulomb="F"
 has_so="F" has_wfc="F" has_gipaw="F" paw_as_gipaw="F" core_correction="F" functional="PZ"
 z_valence="1.0" total_psenergy="0.0" wfc_cutoff="0.0" rho_cutoff="0.0" l_max="-1"
 l_max_rho="0" l_local="0" mesh_size="{MESH}" number_of_wfc="0" number_of_proj="0"/>
<PP_MESH dx="{DX}" mesh="{MESH}" xmin="{XMIN}" rmax="{r[-1]:.10f}" zmesh="{ZMESH}">
{block("PP_R", r)}
{block("PP_RAB", rab)}
</PP_MESH>
{block("PP_LOCAL", vloc)}
<PP_NONLOCAL>
</PP_NONLOCAL>
<PP_PSWFC>
</PP_PSWFC>
{block("PP_RHOATOM", rho)}
</UPF>''')
