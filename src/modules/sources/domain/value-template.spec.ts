import { originOf, parseTemplate, renderTemplate } from './value-template.js';

describe('value templates', () => {
  it('finds references among literal text', () => {
    const parsed = parseTemplate('Bearer ${secret:API_TOKEN} via ${env:PROXY}');
    expect(parsed).toEqual({
      references: [
        { kind: 'secret', name: 'API_TOKEN' },
        { kind: 'env', name: 'PROXY' },
      ],
      problems: [],
      hasLiteralText: true,
    });
    expect(originOf('${secret:A}')).toBe('reference');
    expect(originOf('x${secret:A}')).toBe('mixed');
    expect(originOf('plain')).toBe('literal');
  });

  it('reports malformed references', () => {
    expect(parseTemplate('${vault:x}').problems).toHaveLength(1);
    expect(parseTemplate('${secret:}').problems).toHaveLength(1);
    expect(parseTemplate('oops ${secret:A').problems).toEqual(['has an unterminated "${"']);
  });

  it('renders references through the lookup', () => {
    expect(renderTemplate('Bearer ${secret:T}', (ref) => `<${ref.kind}:${ref.name}>`)).toBe('Bearer <secret:T>');
  });
});
