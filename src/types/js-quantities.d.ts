// js-quantities ships no types; the part of its API the language layer uses.
declare module "js-quantities" {
  interface Qty {
    scalar: number;
    baseScalar: number;
    units(): string;
    kind(): string;
    isUnitless(): boolean;
    to(unit: string): Qty;
  }
  interface QtyStatic {
    (value: number | string, unit?: string): Qty;
    parse(text: string): Qty | null;
  }
  const Qty: QtyStatic;
  export default Qty;
}
