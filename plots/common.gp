# Shared look of every hardbench chart; hardbench puts it in front of each template.
# Names of variants and metrics contain underscores: never treat text as enhanced markup.
set encoding utf8
set datafile separator "\t"
set datafile missing "NaN"
set termoption noenhanced
set grid ytics lc rgb "#d0d0d0" lw 1
set border 3 lw 1.2
set tics nomirror
set key noenhanced
set title noenhanced font ",14"
# Okabe and Ito's colour-blind-safe palette, ordered so that neighbouring series also
# differ in lightness (greyscale print: dark blue, light orange, black, light sky blue,
# mid vermillion, pale yellow, green, pink); point shapes differ too.
set linetype 1 lc rgb "#0072B2" lw 2 pt 7 ps 1.2
set linetype 2 lc rgb "#E69F00" lw 2 pt 5 ps 1.2
set linetype 3 lc rgb "#000000" lw 2 pt 9 ps 1.4
set linetype 4 lc rgb "#56B4E9" lw 2 pt 11 ps 1.4
set linetype 5 lc rgb "#D55E00" lw 2 pt 13 ps 1.4
set linetype 6 lc rgb "#F0E442" lw 2 pt 15 ps 1.4
set linetype 7 lc rgb "#009E73" lw 2 pt 4 ps 1.2
set linetype 8 lc rgb "#CC79A7" lw 2 pt 6 ps 1.2
set linetype cycle 8

# open_output(fmt): the terminal for one format. 900x560 (wider for many tests or variants)
# with a 12 pt font stays readable when shown 800 px wide. "noenhanced" again here: setting
# a terminal resets its options, which would turn "guest_sys" into guest with subscript s.
# `harness plot` runs one gnuplot per format with out_file = "" (the image on standard
# output, a file it opened itself); rerun by hand, the images go to outbase.svg/.png.
if (!exists("out_file")) out_file = "-"
output_of(fmt) = (out_file eq "-") ? sprintf("set output '%s.%s'", outbase, fmt) : \
    (out_file eq "" ? "set output" : sprintf("set output '%s'", out_file))
open_output(fmt) = (fmt eq "svg") ? \
    sprintf("set terminal svg size %d,%d dynamic noenhanced font 'sans,12' background rgb 'white'; %s", chart_width, chart_height, output_of(fmt)) : \
    sprintf("set terminal pngcairo size %d,%d noenhanced font 'sans,12' background rgb 'white'; %s", chart_width, chart_height, output_of(fmt))

# Bars and points never sit on the frame; an all-positive chart starts at 0.
set offsets 0, 0, graph 0.1, graph 0.05
if (all_positive) { set yrange [0:*] }
