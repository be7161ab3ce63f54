/** Windowed-sinc (Hann, 16 zero crossings) sample-rate conversion of mono audio; low-passes when downsampling. */
export function resample(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate) return input;
  const ratio = toRate / fromRate;
  const outLength = Math.round(input.length * ratio);
  const output = new Float32Array(outLength);
  const cutoff = Math.min(1, ratio);
  const zeros = 16;
  const halfWidth = zeros / cutoff;
  for (let o = 0; o < outLength; o++) {
    const center = o / ratio;
    const from = Math.max(0, Math.ceil(center - halfWidth));
    const to = Math.min(input.length - 1, Math.floor(center + halfWidth));
    let sum = 0;
    for (let i = from; i <= to; i++) {
      const x = (i - center) * cutoff;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const window = 0.5 + 0.5 * Math.cos((Math.PI * x) / zeros);
      sum += input[i] * sinc * window;
    }
    output[o] = sum * cutoff;
  }
  return output;
}
