import { node, objectName, type FbxNode } from './node.ts';

/** Id 0 is the implicit scene root in FBX connections. */
export const SCENE_ROOT = 0n;

/**
 * Collects the objects and connections of one FBX scene. Ids are sequential so the output is
 * deterministic (packages are cached per avatar) and stay below 2^53 for readers using doubles.
 */
export class FbxScene {
  readonly objects: FbxNode[] = [];
  readonly connections: FbxNode[] = [];
  private next = 1000000n;

  /**
   * Adds an object node `kind` with id, `name\0\x01nameClass` and subclass, and returns its id.
   * The name class is the node kind except for a few (clusters are `SubDeformer`, stacks `AnimStack`).
   */
  add(kind: string, name: string, subclass: string, children: FbxNode[], nameClass = kind): bigint {
    const id = this.next++;
    this.objects.push(node(kind, [id, objectName(name, nameClass), subclass], children));
    return id;
  }

  /** Object-to-object link (child belongs to parent). */
  connect(child: bigint, parent: bigint): void {
    this.connections.push(node('C', ['OO', child, parent]));
  }

  /** Object-to-property link (child drives or feeds the named property of parent). */
  connectProperty(child: bigint, parent: bigint, property: string): void {
    this.connections.push(node('C', ['OP', child, parent, property]));
  }

  /** Object count per node kind, for the Definitions section. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const o of this.objects) counts.set(o.name, (counts.get(o.name) ?? 0) + 1);
    return counts;
  }
}
