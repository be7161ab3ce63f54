import { CREATION_TIME, FBX_VERSION, FILE_ID } from './encode.ts';
import { int32, node, objectName, prop70, properties70, type FbxNode } from './node.ts';

/** FBX time unit: ticks per second. */
export const KTIME_PER_SECOND = 46186158000n;
export const ktime = (seconds: number): bigint => BigInt(Math.round(seconds * 1000)) * (KTIME_PER_SECOND / 1000n);

export const CREATOR = 'avatar-service FBX writer';
const FRAME_RATE = 30;
/** GlobalSettings TimeMode enum value for 30 frames per second. */
const TIME_MODE_30 = 6;

/** The document description the FBX SDK writes into every header; some readers show it. */
function sceneInfo(): FbxNode {
  const app = (prefix: string): FbxNode[] => [
    prop70(prefix, 'Compound', '', ''),
    prop70(`${prefix}|ApplicationVendor`, 'KString', '', '', 'avatar-service'),
    prop70(`${prefix}|ApplicationName`, 'KString', '', '', CREATOR),
    prop70(`${prefix}|ApplicationVersion`, 'KString', '', '', '1'),
    prop70(`${prefix}|DateTime_GMT`, 'DateTime', '', '', '01/01/1970 10:00:00.000'),
  ];
  return node('SceneInfo', [objectName('GlobalInfo', 'SceneInfo'), 'UserData'], [
    node('Type', ['UserData']),
    node('Version', [int32(100)]),
    node('MetaData', [], [
      node('Version', [int32(100)]),
      ...['Title', 'Subject', 'Author', 'Keywords', 'Revision', 'Comment'].map((k) => node(k, [''])),
    ]),
    properties70([...app('Original'), ...app('LastSaved')]),
  ]);
}

/** Everything before Objects: header extension, file id, global settings (cm, Y up, +Z front), documents. */
export function preamble(animationSeconds: number): FbxNode[] {
  const i = int32;
  return [
    node('FBXHeaderExtension', [], [
      node('FBXHeaderVersion', [i(1003)]),
      node('FBXVersion', [i(FBX_VERSION)]),
      node('EncryptionType', [i(0)]),
      // Fixed time stamp, consistent with FileId and the footer id (see encode.ts).
      node('CreationTimeStamp', [], [
        node('Version', [i(1000)]),
        node('Year', [i(1970)]), node('Month', [i(1)]), node('Day', [i(1)]),
        node('Hour', [i(10)]), node('Minute', [i(0)]), node('Second', [i(0)]), node('Millisecond', [i(0)]),
      ]),
      node('Creator', [CREATOR]),
      sceneInfo(),
    ]),
    node('FileId', [FILE_ID]),
    node('CreationTime', [CREATION_TIME]),
    node('Creator', [CREATOR]),
    node('GlobalSettings', [], [
      node('Version', [i(1000)]),
      properties70([
        prop70('UpAxis', 'int', 'Integer', '', i(1)),
        prop70('UpAxisSign', 'int', 'Integer', '', i(1)),
        prop70('FrontAxis', 'int', 'Integer', '', i(2)),
        prop70('FrontAxisSign', 'int', 'Integer', '', i(1)),
        prop70('CoordAxis', 'int', 'Integer', '', i(0)),
        prop70('CoordAxisSign', 'int', 'Integer', '', i(1)),
        prop70('OriginalUpAxis', 'int', 'Integer', '', i(1)),
        prop70('OriginalUpAxisSign', 'int', 'Integer', '', i(1)),
        // One unit is 1 cm.
        prop70('UnitScaleFactor', 'double', 'Number', '', 1),
        prop70('OriginalUnitScaleFactor', 'double', 'Number', '', 1),
        prop70('AmbientColor', 'ColorRGB', 'Color', '', 0, 0, 0),
        prop70('DefaultCamera', 'KString', '', '', 'Producer Perspective'),
        prop70('TimeMode', 'enum', '', '', i(TIME_MODE_30)),
        prop70('TimeProtocol', 'enum', '', '', i(2)),
        prop70('SnapOnFrameMode', 'enum', '', '', i(0)),
        prop70('TimeSpanStart', 'KTime', 'Time', '', 0n),
        prop70('TimeSpanStop', 'KTime', 'Time', '', ktime(animationSeconds)),
        prop70('CustomFrameRate', 'double', 'Number', '', FRAME_RATE),
        prop70('CurrentTimeMarker', 'int', 'Integer', '', i(-1)),
      ]),
    ]),
    node('Documents', [], [
      node('Count', [i(1)]),
      node('Document', [1n, 'Scene', 'Scene'], [
        properties70([
          prop70('SourceObject', 'object', '', ''),
          prop70('ActiveAnimStackName', 'KString', '', '', ''),
        ]),
        node('RootNode', [0n]),
      ]),
    ]),
    node('References'),
  ];
}

/** Definitions: how many objects of each kind the file holds (readers size their tables from it). */
export function definitions(counts: Map<string, number>): FbxNode {
  const types = [['GlobalSettings', 1] as const, ...counts];
  return node('Definitions', [], [
    node('Version', [int32(100)]),
    node('Count', [int32(types.reduce((s, [, n]) => s + n, 0))]),
    ...types.map(([type, n]) => node('ObjectType', [type], [node('Count', [int32(n)])])),
  ]);
}
