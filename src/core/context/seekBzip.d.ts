// seek-bzip ships no types: the one call used here (decode into a byte sink).
declare module 'seek-bzip' {
  interface ByteSink {
    writeByte(byte: number): void;
    flush(): void;
  }
  const Bunzip: {
    decode(input: Uint8Array, output: ByteSink, multistream?: boolean): void;
  };
  export = Bunzip;
}
