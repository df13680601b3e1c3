export interface Shape {
  area(): number;
  name: string;
}

export type Id = string | number;

export enum Color {
  Red,
  Green,
}

@Component({
  selector: "x",
})
export class Circle implements Shape {
  constructor(private r: number) {}

  @Input()
  area(): number {
    return Math.PI * this.r ** 2;
  }

  private handler = async (x: number): Promise<void> => {
    await x;
  };
}

export abstract class Base<T> {
  abstract run(): T;
}

namespace Geo {
  export function dist(a: number): number {
    return a;
  }
}

declare function ext(a: string): void;

export const typed = <T,>(v: T): T => v;

export const handlers = {
  onSave(doc: string) {
    return doc;
  },
} satisfies Handlers;

const store = new Store({
  reset() {},
});
