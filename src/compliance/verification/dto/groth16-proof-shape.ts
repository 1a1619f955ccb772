import { registerDecorator, ValidationOptions } from 'class-validator';
import { parseGroth16Proof, parsePublicSignals, type Parsed } from '../../zk/proof-shape';

/** A class-validator decorator from one of the zk module's strict parsers (one parser, one message). */
function fromParser(name: string, parse: (value: unknown) => Parsed<unknown>) {
  return (options?: ValidationOptions): PropertyDecorator =>
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name,
        target: target.constructor,
        propertyName: propertyName as string,
        options: {
          message: ({ value }) => {
            const parsed = parse(value);
            return parsed.ok ? '' : parsed.message;
          },
          ...options,
        },
        validator: { validate: (value: unknown) => parse(value).ok },
      });
}

/** A snarkjs Groth16 proof, checked by `parseGroth16Proof` (src/compliance/zk/proof-shape.ts). */
export const IsGroth16Proof = fromParser('isGroth16Proof', parseGroth16Proof);

/** The circuit's public signals, checked by `parsePublicSignals`. */
export const IsPublicSignals = fromParser('isPublicSignals', parsePublicSignals);
