/** One printed figure of `npm run bench`; `baseline` names the figure it is compared with from the same run. */
export interface Figure {
  key: string;
  value: number;
  unit: string;
  baseline?: string;
  goal?: string;
}
