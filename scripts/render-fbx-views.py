"""Renders an avatar FBX in Blender from the front, the side, three-quarter and close on its left ear.

blender -b --factory-startup -P scripts/render-fbx-views.py -- AVATAR.fbx OUT_PREFIX [SIZE] [closeups]
Writes OUT_PREFIX-front.png, -side.png, -three-quarter.png and -ear.png (Cycles on the CPU,
transparent background); with `closeups` instead -eyes.png, -eye-close.png (the left eye, 3 cm across), -eyes-closed.png (eyeBlink* at 1),
-eyes-closed-below.png and -mouth.png (jawOpen at 1); with `mouth` instead -mouth.png, -mouth-aa.png
(viseme_aa), -mouth-tongue.png (tongueOut) from the front and -mouth-three-quarter.png (jawOpen); with `hair` instead -hair-front.png, -hair-side.png,
-hair-back.png and -hair-three-quarter.png, close on the head from a little above; with `jaw` instead -jaw-side.png and
-jaw-below.png, the jaw bone turned open 20 degrees (as a rig opens the mouth), from the side and from below the chin;
with `neck` instead -neck-back.png (the neck bone tilted back 30 degrees: the nape from the side, behind) and
-head-nod.png (the head bone nodded 30 degrees forward: the throat from the side, below); with `hair-pose` instead
-pose-back.png (the neck tilted back 30 degrees), -pose-turn.png (the neck turned 40) and -pose-roll.png (the head
rolled 30), the hair and the shoulders from behind; with `beard` instead -beard-front.png, -beard-three-quarter.png and
-beard-side.png, the face from a little below, the chin and the jaw in the middle; with `nape` instead -nape-front.png,
-nape-side.png, -nape-back-three-quarter.png and -nape-back.png, the head and the neck down to the shoulders; with `face`
instead -face-front.png, -face-right.png and -face-left.png, the face close from the front and from three-quarter on
each side (a turned photo's far side is one of them). The avatar's frame is Y up, face along +Z; Blender's importer turns it
Z up, face along -Y. Sizes come from the eyeballs (interpupillary distance 6.3 cm in the template).
"""
import math
import sys

import bpy
from mathutils import Matrix, Vector

argv = sys.argv[sys.argv.index('--') + 1:]
fbx, prefix = argv[0], argv[1]
size = int(argv[2]) if len(argv) > 2 else 480
closeups = 'closeups' in argv[3:]
hair = 'hair' in argv[3:]
hair_pose = 'hair-pose' in argv[3:]
mouth = 'mouth' in argv[3:]
jaw = 'jaw' in argv[3:]
neck = 'neck' in argv[3:]
beard = 'beard' in argv[3:]
nape = 'nape' in argv[3:]
face = 'face' in argv[3:]

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=fbx)
# The rest pose, not the first frame of an imported clip.
for armature in (o for o in bpy.context.scene.objects if o.type == 'ARMATURE'):
    armature.data.pose_position = 'REST'
meshes = [o for o in bpy.context.scene.objects if o.type == 'MESH']
depsgraph = bpy.context.evaluated_depsgraph_get()


def world_vertices(obj):
    ev = obj.evaluated_get(depsgraph)
    return [ev.matrix_world @ v.co for v in ev.data.vertices]


points = {o.name: world_vertices(o) for o in meshes}
every = [p for ps in points.values() for p in ps]
lo = Vector([min(p[k] for p in every) for k in range(3)])
hi = Vector([max(p[k] for p in every) for k in range(3)])


def centre_of(name_part):
    ps = next(ps for n, ps in points.items() if name_part in n)
    return sum(ps, Vector()) / len(ps)


eye_left, eye_right = centre_of('eyeLeft'), centre_of('eyeRight')
unit = (eye_left - eye_right).length / 6.3  # Blender units per template cm

scene = bpy.context.scene
scene.render.engine = 'CYCLES'
scene.cycles.device = 'CPU'
scene.cycles.samples = 24
scene.cycles.use_denoising = False
scene.render.film_transparent = True
scene.render.resolution_x = scene.render.resolution_y = size
scene.view_settings.view_transform = 'Standard'
world = bpy.data.worlds.new('world')
world.use_nodes = True
world.node_tree.nodes['Background'].inputs[0].default_value = (0.45, 0.45, 0.47, 1)
scene.world = world
for name, rotation, energy in (('key', (50, 0, 30), 3.0), ('fill', (60, 0, -60), 1.2), ('rim', (110, 0, 180), 1.5)):
    light = bpy.data.lights.new(name, 'SUN')
    light.energy = energy
    # Soft suns: Blender's default (half a degree across) casts the nose's shadow as a hard-edged patch
    # that reads as a translucent spot on the skin.
    light.angle = math.radians(25)
    obj = bpy.data.objects.new(name, light)
    obj.rotation_euler = [math.radians(a) for a in rotation]
    scene.collection.objects.link(obj)

camera_data = bpy.data.cameras.new('camera')
camera_data.type = 'ORTHO'
camera = bpy.data.objects.new('camera', camera_data)
scene.collection.objects.link(camera)
scene.camera = camera


def shoot(name, direction, target, extent):
    """Orthographic view along -direction onto target, `extent` Blender units across."""
    d = Vector(direction).normalized()
    camera.location = target + d * (hi - lo).length * 2
    # Look along -d with Blender's Z up: the camera's local -Z is the view, local Y the up.
    right = (-d).cross(Vector((0, 0, 1))).normalized()
    up = right.cross(-d)
    camera.rotation_euler = Matrix((right, up, d)).transposed().to_euler()
    camera_data.ortho_scale = extent
    camera_data.clip_end = (hi - lo).length * 5
    scene.render.filepath = f'{prefix}-{name}.png'
    bpy.ops.render.render(write_still=True)


def set_shapes(weights):
    """Every mesh's shape keys to these weights by name (the rest to 0)."""
    for o in meshes:
        keys = o.data.shape_keys
        if keys is None:
            continue
        # The imported clips animate the shape keys (the blink clip drives eyeBlink*): they would override these.
        keys.animation_data_clear()
        for block in keys.key_blocks[1:]:
            block.value = weights.get(block.name, 0.0)


if closeups:
    # Close on the eyes (open, closed from the front and from below) and on the mouth wide open.
    eyes = (eye_left + eye_right) / 2
    span = (eye_left - eye_right).length
    set_shapes({})
    shoot('eyes', (0, -1, 0.05), eyes, span * 1.8)
    # The left eye alone, 3 cm across: the iris's texture as a close-up in a game shows it.
    shoot('eye-close', (0, -1, 0.05), eye_left, 3 * unit)
    set_shapes({'eyeBlinkLeft': 1.0, 'eyeBlinkRight': 1.0})
    shoot('eyes-closed', (0, -1, 0.05), eyes, span * 1.8)
    shoot('eyes-closed-below', (0, -0.8, -0.6), eyes, span * 1.8)
    set_shapes({'jawOpen': 1.0})
    shoot('mouth', (0, -1, 0.05), eyes - Vector((0, 0, 7.2 * unit)), 8 * unit)
    sys.exit(0)

if mouth:
    # The mouth open in the shapes that show its inside: wide (jawOpen), speaking (aa) and the tongue out.
    eyes = (eye_left + eye_right) / 2
    centre = eyes - Vector((0, 0, 7.2 * unit))
    for name, weights in (('mouth', {'jawOpen': 1.0}), ('mouth-aa', {'viseme_aa': 1.0}), ('mouth-tongue', {'tongueOut': 1.0})):
        set_shapes(weights)
        shoot(name, (0, -1, 0.05), centre, 8 * unit)
    set_shapes({'jawOpen': 1.0})
    shoot('mouth-three-quarter', (0.6, -0.8, 0.1), centre, 8 * unit)
    sys.exit(0)

def turn_bone(name, degrees, axis='X'):
    """Turns a bone about a world axis through its joint, every other bone at rest; the imported clips would override
    the pose. X is the avatar's X (positive: the chin down and back), Z its up (a turn), Y its back (a roll)."""
    armature = next(o for o in scene.objects if o.type == 'ARMATURE')
    armature.animation_data_clear()
    armature.data.pose_position = 'POSE'
    for other in armature.pose.bones:
        other.matrix_basis = Matrix()
    bpy.context.view_layer.update()
    bone = armature.pose.bones[name]
    joint = armature.matrix_world @ bone.bone.head_local
    turn = Matrix.Translation(joint) @ Matrix.Rotation(math.radians(degrees), 4, axis) @ Matrix.Translation(-joint)
    bone.matrix = armature.matrix_world.inverted() @ turn @ armature.matrix_world @ bone.bone.matrix_local
    bpy.context.view_layer.update()


if jaw:
    turn_bone('jaw', 20)
    # Under the chin, where the skin between the jaw and the throat folds if any does (Blender's +Y is the back).
    chin = (eye_left + eye_right) / 2 + Vector((0, 3 * unit, -12 * unit))
    shoot('jaw-side', (1, -0.25, -0.1), chin, 18 * unit)
    shoot('jaw-below', (0.35, -0.6, -0.75), chin, 18 * unit)
    sys.exit(0)

if neck:
    # The head looking up on the neck bone, the nape from the side and behind; nodding on the head bone, the throat
    # from the side and below.
    eyes = (eye_left + eye_right) / 2
    turn_bone('neck', -30)
    shoot('neck-back', (1, 1.1, 0.05), eyes + Vector((0, 9 * unit, -16 * unit)), 20 * unit)
    turn_bone('head', 30)
    shoot('head-nod', (1, -0.3, -0.3), eyes + Vector((0, 3 * unit, -11 * unit)), 20 * unit)
    sys.exit(0)

if hair_pose:
    # The hair with the head posed: looking up on the neck (the nape from the side, behind), turned on the neck
    # (from behind, three-quarter) and rolled on the head (from behind): where hanging hair meets the neck and back.
    eyes = (eye_left + eye_right) / 2
    centre = eyes + Vector((0, 6 * unit, -9 * unit))
    turn_bone('neck', -30)
    shoot('pose-back', (1, 1.1, 0.05), centre, 40 * unit)
    turn_bone('neck', 40, 'Z')
    shoot('pose-turn', (0.6, 1, 0.15), centre, 40 * unit)
    turn_bone('head', 30, 'Y')
    shoot('pose-roll', (0, 1, 0.1), centre, 40 * unit)
    sys.exit(0)

if beard:
    # The face from a little below, centred between the mouth and the jaw: where a beard goes on past the photo.
    eyes = (eye_left + eye_right) / 2
    centre = eyes + Vector((0, 2 * unit, -7 * unit))
    for name, direction in (('front', (0, -1, -0.2)), ('three-quarter', (0.7, -0.7, -0.2)), ('side', (1, 0, -0.15))):
        shoot(f'beard-{name}', direction, centre, 22 * unit)
    sys.exit(0)

if face:
    # The face close, from the front and from three-quarter on either side: a turned photo shows one side less.
    # A little behind the eyes (Blender's +Y is the back), so that the turned views take in the cheek out to the ear.
    centre = (eye_left + eye_right) / 2 + Vector((0, 3 * unit, -3 * unit))
    for name, direction in (('front', (0, -1, 0.05)), ('right', (-0.7, -0.7, 0.05)), ('left', (0.7, -0.7, 0.05))):
        shoot(f'face-{name}', direction, centre, 28 * unit)
    sys.exit(0)

if nape:
    # The head and the neck down to the shoulders: the occiput, the nape under it, the neck's foot on the shoulders.
    eyes = (eye_left + eye_right) / 2
    centre = eyes + Vector((0, 6 * unit, -9 * unit))
    for name, direction in (('front', (0, -1, 0.1)), ('side', (1, 0, 0.05)), ('back-three-quarter', (0.7, 0.7, 0.15)), ('back', (0, 1, 0.1))):
        shoot(f'nape-{name}', direction, centre, 40 * unit)
    sys.exit(0)

if hair:
    # The head and its hair from around, a little above: the eyes' height up to the top of the hair.
    eyes = (eye_left + eye_right) / 2
    centre = Vector((eyes.x, eyes.y + 4 * unit, eyes.z + 2 * unit))
    for name, direction in (('front', (0, -1, 0.25)), ('side', (1, 0, 0.25)), ('back', (0, 1, 0.25)), ('three-quarter', (0.7, -0.7, 0.3))):
        shoot(f'hair-{name}', direction, centre, 34 * unit)
    sys.exit(0)

middle = (lo + hi) / 2
whole = max(hi.z - lo.z, hi.x - lo.x) * 1.08
shoot('front', (0, -1, 0.05), middle, whole)
shoot('side', (1, 0, 0.05), middle, whole)
shoot('three-quarter', (0.7, -0.7, 0.1), middle, whole)
# The left ear (+X): the outermost head point near the ear's height, somewhat behind the eyes.
ear_z = eye_left.z - 1.6 * unit
head = next(ps for n, ps in points.items() if n.startswith('head'))
near = [p for p in head if abs(p.z - ear_z) < 2.5 * unit and p.y > eye_left.y + 3 * unit and p.x > 0]
rim = max(near, key=lambda p: p.x) if near else eye_left
ear = Vector((rim.x - 1.0 * unit, rim.y, ear_z))
shoot('ear', (1, -0.35, 0.1), ear, 12 * unit)
