#!/usr/bin/env bash
# Makes the dashboard's welcome-banner background from nothing but ffmpeg's own sources:
# a dark teal/indigo-to-amber gradient with soft, slowly drifting bokeh lights.
#
# Every moving term is periodic with the loop length, so frame N+1 after the last one is frame 0:
# the video loops without a seam. The picture is rendered small (geq is slow and the image is
# soft anyway), scaled up with a bicubic filter and blurred so no block edges show.
#
# Output (committed): src/web/public/media/banner.webm (VP9), banner.mp4 (H.264, yuv420p,
# faststart) and banner-poster.jpg. Usage: scripts/make-banner-video.sh [output-dir]
set -euo pipefail

out_dir="${1:-$(dirname "$0")/../src/web/public/media}"
mkdir -p "$out_dir"

duration=8       # seconds in one loop
fps=12           # a slow drift: twelve frames a second are smooth enough, and half the work
width=640        # shown 200 px high and soft all over: a phone decodes a quarter of 1280x400
height=200
small_w=160      # render size; the aspect ratio must match width/height
small_h=50

command -v ffmpeg >/dev/null || {
  echo "ffmpeg is required (apt-get install -y ffmpeg)" >&2
  exit 1
}

# Normalised coordinates: u across (0..1), v down (0..1); a = aspect ratio so blobs stay round.
# p runs once round the circle per loop.
u="(X/W)"
v="(Y/H)"
a="3.2"
p="(2*PI*T/${duration})"

# A soft light: gaussian of radius r (in banner heights) centred at (cx, cy).
blob() { # cx cy r
  echo "exp(-((((${u})-($1))*${a})^2+((${v})-($2))^2)/(($3)^2))"
}

b1=$(blob "0.22+0.06*sin(${p})" "0.42+0.16*cos(${p})" "0.55")
b2=$(blob "0.74+0.07*cos(${p})" "0.58+0.14*sin(${p}+1)" "0.65")
b3=$(blob "0.52+0.10*sin(${p}+2)" "0.32+0.10*sin(2*${p})" "0.32")
b4=$(blob "0.90+0.04*sin(${p}+4)" "0.28+0.14*cos(${p}+3)" "0.30")
b5=$(blob "0.08+0.04*cos(${p}+5)" "0.76+0.08*sin(${p})" "0.30")
b6=$(blob "0.36+0.05*cos(2*${p}+1)" "0.70+0.08*sin(${p}+2)" "0.22")

# The gradient's mix: left (deep teal/indigo) to right (warm amber), with a slow sway.
mix="pow(clip(-0.10+1.05*${u}+0.08*sin(${p}+2.4*${v})+0.05*cos(${p}+3*${u}),0,1),1.7)"
# A second, vertical shift from indigo (top) to teal (bottom) on the cool side.
cool="clip(0.25+0.6*${v}+0.15*sin(${p}+1.5*${u}),0,1)"

# channel <indigo> <teal> <amber> <light1..light6>: base colour plus additive soft lights.
channel() {
  local indigo=$1 teal=$2 amber=$3
  shift 3
  local base="((${indigo})*(1-${cool})+(${teal})*${cool})*(1-${mix})+(${amber})*${mix}"
  echo "clip(${base}+$1*${b1}+$2*${b2}+$3*${b3}+$4*${b4}+$5*${b5}+$6*${b6},0,255)"
}

#               indigo teal amber | teal  amber gold  amber blue  rose
red=$(channel   26     10   150     18    84    64    74    26    56)
green=$(channel 28     74   80      62    48    46    40    30    28)
blue=$(channel  82     90   24      70    10    12    10    74    22)

filter="nullsrc=s=${small_w}x${small_h}:r=${fps}:d=${duration},format=gbrp,"
filter+="geq=r='${red}':g='${green}':b='${blue}',"
filter+="scale=${width}:${height}:flags=bicubic,gblur=sigma=3,"
filter+="vignette=angle=PI/5,format=yuv420p"

tmp_dir=$(mktemp -d)
trap 'rm -rf "$tmp_dir"' EXIT
master="$tmp_dir/master.mkv"

# A lossless master first, so both encodes start from the same frames.
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$filter" \
  -c:v libx264 -qp 0 -preset ultrafast "$master"

ffmpeg -hide_banner -loglevel error -y -i "$master" -an \
  -c:v libvpx-vp9 -b:v 0 -crf 38 -row-mt 1 -deadline good -cpu-used 2 -g $((duration * fps)) \
  -pix_fmt yuv420p "$out_dir/banner.webm"

ffmpeg -hide_banner -loglevel error -y -i "$master" -an \
  -c:v libx264 -preset slow -crf 27 -tune grain -profile:v high -pix_fmt yuv420p \
  -g $((duration * fps)) -movflags +faststart "$out_dir/banner.mp4"

ffmpeg -hide_banner -loglevel error -y -ss 0 -i "$master" -frames:v 1 -q:v 3 \
  "$out_dir/banner-poster.jpg"

for file in banner.webm banner.mp4 banner-poster.jpg; do
  printf '%-18s %8d bytes\n' "$file" "$(stat -c %s "$out_dir/$file")"
done
