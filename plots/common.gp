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
set linetype 1 lc rgb "#1f77b4" lw 2 pt 7 ps 1.2
set linetype 2 lc rgb "#d62728" lw 2 pt 5 ps 1.2
set linetype 3 lc rgb "#2ca02c" lw 2 pt 9 ps 1.4
set linetype 4 lc rgb "#ff7f0e" lw 2 pt 11 ps 1.4
set linetype 5 lc rgb "#9467bd" lw 2 pt 13 ps 1.4
set linetype 6 lc rgb "#8c564b" lw 2 pt 15 ps 1.4
set linetype 7 lc rgb "#e377c2" lw 2 pt 4 ps 1.2
set linetype 8 lc rgb "#7f7f7f" lw 2 pt 6 ps 1.2
set linetype cycle 8

# open_output(fmt): the terminal for one format. 900x560 (wider for many tests or variants)
# with a 12 pt font stays readable when shown 800 px wide. "noenhanced" again here: setting
# a terminal resets its options, which would turn "guest_sys" into guest with subscript s.
open_output(fmt) = (fmt eq "svg") ? \
    sprintf("set terminal svg size %d,%d dynamic noenhanced font 'sans,12' background rgb 'white'; set output '%s.svg'", chart_width, chart_height, outbase) : \
    sprintf("set terminal pngcairo size %d,%d noenhanced font 'sans,12' background rgb 'white'; set output '%s.png'", chart_width, chart_height, outbase)

# Bars and points never sit on the frame; an all-positive chart starts at 0.
set offsets 0, 0, graph 0.1, graph 0.05
if (all_positive) { set yrange [0:*] }
